#pragma once
// The ranks of an NCCL communicator recorded in one trace (the processes of a job on one host,
// `causeway-collector record -- torchrun ...`), aligned by their collectives: the k-th collective
// each rank issued on its communicator is one collective of the job. A rank arrives at a
// collective when it enqueues it (the call's entry). On a real GPU the device reaches it after the
// work queued before it, which this leaves out: it says which rank's host was late, not by how
// much its device was.
//
// Communicators of different processes are one when they have the same size and are the same
// one in order among each process's communicators of that size, and their ranks are 0..n-1 once
// each (the unique id that joins them is not recorded).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/measure/python_lines.hpp"
#include "analysis/model/trace_model.hpp"

namespace causeway::analysis {

struct RankTiming {
    int process_index = -1;
    std::int64_t pid = 0;
    std::int64_t rank = 0;
    std::int64_t collectives = 0;   // it issued on the communicator
    std::int64_t arrived_last = 0;  // of the collectives every rank reached
    std::int64_t late_ns = 0;       // summed where it arrived last: after the next-to-last rank
    std::int64_t waited_ns = 0;     // summed: the last rank's arrival less its own
    // Its collectives on the communicator, in order (indices into TraceModel::nccl_calls); the
    // first `aligned` of them are the ones every rank reached.
    std::vector<int> calls;
};

// A rank that never issued a collective the others did, and the last CUDA or NCCL call its
// process made (where it was when it stopped; not a driver call inside a runtime call), if any.
struct AbsentRank {
    std::int64_t rank = 0;
    std::int64_t pid = 0;
    std::optional<std::string> last_call;
    std::int64_t last_call_ns = 0;  // its entry
    // Where that call's thread was in its Python code when last seen: its last switch-out after
    // that call (a thread blocked for good leaves its CPU there), else the call's own stack.
    // Absent without Python frames, or with a stack whose frames were all library code.
    std::optional<CodeLine> stuck_at;
};

// A collective that some ranks issued and others had not by the end of the recording.
struct MissingCollective {
    std::int64_t number = 0;         // 1-based, in the communicator's order
    std::vector<AbsentRank> absent;  // by rank
};

struct CommunicatorRanks {
    std::int64_t nranks = 0;
    std::int64_t aligned = 0;       // collectives every rank reached
    std::vector<RankTiming> ranks;  // by rank
    std::optional<MissingCollective> missing;

    // The rank that arrived last most often (ties: the lower rank); nullptr without collectives.
    const RankTiming* latest() const;
};

// A communicator of the job: (size, order among each process's communicators of that size).
using CommunicatorKey = std::pair<std::int64_t, int>;

// The communicators of the trace with a size of at least 2 and a known rank, by key: indices into
// model.nccl_comms, one per process that holds it.
std::map<CommunicatorKey, std::vector<int>> communicators(const TraceModel& model);

// Each communicator's collectives (indices into model.nccl_calls), in order, by its index into
// model.nccl_comms.
std::map<int, std::vector<int>> collectives_by_communicator(const TraceModel& model);

// The last CUDA or NCCL call of `rank`'s process and where its thread was after it.
AbsentRank last_seen(const TraceModel& model, const RankTiming& rank);

// Sets arrived_last, late_ns and waited_ns of `ranks` from when each arrived at the first
// `aligned` collectives: arrivals[r][k] is ranks[r]'s arrival at collective k, on one clock.
void time_arrivals(const std::vector<std::vector<std::int64_t>>& arrivals, std::int64_t aligned,
                   std::vector<RankTiming>& ranks);

// When `rank` arrived at the collective of index `number` (0-based) in its communicator's order.
std::int64_t collective_arrival(const TraceModel& model, const RankTiming& rank,
                                std::size_t number);

// Every communicator whose ranks are all in the trace, with at least one collective.
std::vector<CommunicatorRanks> align_ranks(const TraceModel& model);

}  // namespace causeway::analysis
