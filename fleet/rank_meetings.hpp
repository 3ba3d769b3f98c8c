#pragma once
// The ranks of an NCCL job recorded on separate nodes (one trace each, pushed as nodes), aligned
// by their collectives as analysis/measure/rank_alignment.hpp aligns the ranks of one trace: the
// k-th collective of each rank on a communicator is one collective of the job.
//
// Each node stamps its collectives with its own wall clock, which is off its neighbours' by the
// error of their time sync (milliseconds, or worse). A rank leaves a collective when its data is
// complete, on every rank at nearly the same time, so the median difference between a node's
// leaving times and the reference node's (rank 0's) is the offset of its clock. Arrivals on the
// corrected clocks say who was last and by how much.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/measure/rank_alignment.hpp"

namespace causeway::fleet {

// One rank's collectives on one communicator, as its node pushed them (analysis::RankSeries, on
// the node's wall clock: ns since the Unix epoch).
struct PushedRank {
    std::string node;
    analysis::CommunicatorKey communicator;
    std::int64_t rank = 0;
    std::int64_t pid = 0;
    std::vector<std::int64_t> arrival_ns;
    std::vector<std::int64_t> left_ns;  // -1: unknown
    std::string last_call{};            // its process's last call; '' when none
    std::string stuck_at{};             // where its thread was after it; '' when unknown
};

// A node's clock against the reference node's: subtract offset_ns from its times.
struct NodeClock {
    std::string node;
    std::int64_t offset_ns = 0;
    bool reference = false;  // the node of rank 0: the clock the others are set to
    // How many collectives gave the estimate; 0 on another node: none was shared with the
    // reference node, and the node's own clock is taken as it is.
    std::int64_t samples = 0;
};

struct RankOnNode {
    std::string node;
    std::int64_t rank = 0;
    std::int64_t pid = 0;
    std::int64_t collectives = 0;
    std::int64_t arrived_last = 0;  // of the collectives every rank reached
    std::int64_t late_ns = 0;       // summed where it arrived last: after the next-to-last rank
    std::int64_t waited_ns = 0;     // summed: the last rank's arrival less its own
};

// The rank the others waited for.
struct LateRank {
    std::string node;
    std::int64_t rank = 0;
    double arrived_last_share = 0;  // of the aligned collectives
    std::int64_t mean_late_ns = 0;  // after the next-to-last rank, where it was last
    // The job's collectives from the first to the last, and what it gains when this rank arrives
    // at each as the next-to-last one did.
    std::int64_t span_ns = 0;
    std::int64_t late_ns = 0;
    double job_speedup = 1.0;  // span / (span - late)
};

// A rank that never issued a collective that others did, and where its node last saw it.
struct AbsentRankOnNode {
    std::int64_t collective = 0;  // the one it never issued (1-based)
    std::string node;
    std::int64_t rank = 0;
    std::int64_t pid = 0;
    std::string last_call{};
    std::string stuck_at{};
};

struct JobCommunicator {
    std::int64_t nranks = 0;
    std::int64_t aligned = 0;       // collectives every rank reached
    std::vector<RankOnNode> ranks;  // by rank
    // The rank that arrived last most often, when the others' wait for it is at least a tenth
    // of the span (analysis::kChainMinShare, as the COLLECTIVE-WAIT chain).
    std::optional<LateRank> late_rank{};
    std::int64_t missing_number = 0;         // 1-based; 0 when every rank reached every one
    std::vector<AbsentRankOnNode> absent{};  // the ranks that did not issue it, by rank
};

struct RankMeetings {
    std::vector<JobCommunicator> communicators;  // those whose every rank was pushed
    std::vector<NodeClock> clocks;               // nodes holding their ranks, by node
};

RankMeetings meet_ranks(const std::vector<PushedRank>& pushed);

}  // namespace causeway::fleet
