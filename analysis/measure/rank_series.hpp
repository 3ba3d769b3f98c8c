#pragma once
// One trace's share of an NCCL job recorded on many nodes, one trace each: per rank and
// communicator, when the rank arrived at each collective and when it left it. A node's clock is
// not its neighbours', so these cannot be aligned by time alone. All ranks leave a collective at
// nearly the same time, though (its data is complete on all of them at once), so the differences
// of their leaving times give the offsets between the nodes' clocks (fleet/rank_meetings.hpp).

#include <cstdint>
#include <vector>

#include "analysis/measure/rank_alignment.hpp"
#include "analysis/model/trace_model.hpp"

namespace causeway::analysis {

struct RankSeries {
    CommunicatorKey communicator;
    std::int64_t rank = 0;
    std::int64_t pid = 0;
    // Each collective's entry, in order (ns since the session's start).
    std::vector<std::int64_t> arrival_ns;
    // When the rank left it: the end of the first synchronisation its thread began at or after
    // the collective's entry, where its host learns that the collective is done. -1: none
    // followed.
    std::vector<std::int64_t> left_ns;
    // Its process's last call and where its thread was after it, for when it turns out to be
    // the rank the others waited for in vain.
    AbsentRank last_seen;
};

// Every rank of every communicator in the trace with a known size and rank.
std::vector<RankSeries> rank_series(const TraceModel& model);

}  // namespace causeway::analysis
