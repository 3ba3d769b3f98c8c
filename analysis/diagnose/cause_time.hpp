#pragma once
// Where each cause's time lies on the GPU-driving threads' timelines, for the critical-path
// replay (analysis/measure/critical_path.hpp): the same blame as actor_causes.hpp, kept as
// intervals instead of sums.
//  * Runnable but not running, in calls or between them: the cause of the thread that held the
//    CPU.
//  * Asleep between calls: the cause that ended the sleep; the run-queue wait after it is shared
//    among the causes that took the CPU, by their preempted time.
//  * On a CPU between calls after a sleep that DataLoader workers ended: receiving their batch,
//    theirs too. Otherwise the thread's own work (CauseKind::kOwnCompute, the thread's key),
//    where the thread's scheduling was recorded (not an imported trace). Its intervals, one per
//    gap between calls, are the most of any cause's: they are summed here and read again as a
//    replay needs them (own_compute_time.hpp), and held only for an NCCL job (every category).
//  * Inside calls and on a CPU: the call's own host work, by its op's category (the device chains'
//    time: staging a pageable copy, the allocator's bookkeeping). Asleep inside a call is waiting
//    for the device, which stays. A copy's on-CPU time includes its DMA (the driver spins while
//    it waits), which pinned memory shortens but does not remove: pinning_saves.

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "analysis/diagnose/actor_causes.hpp"
#include "analysis/measure/call_accounting.hpp"
#include "analysis/measure/critical_path.hpp"

namespace causeway::analysis {

// Intervals per primary thread, in CallAccounting::primary's order.
using PerThreadTime = std::vector<IntervalList>;

// The categories whose calls' own time a chain costs (in_call_cost): copies (TRANSFER-BOUND),
// allocations and frees (ALLOCATION-CHURN). Only these are kept unless every category is asked
// for (an NCCL job's late rank is explained by all of its time).
bool costed_category(OpCategory category);

struct CauseTimeline {
    std::map<CauseKey, PerThreadTime> by_cause;  // the own work's only for every category
    // Per primary thread: the key of its own work where its scheduling was recorded, and that
    // work's time.
    std::vector<std::optional<CauseKey>> own_compute;
    std::vector<std::int64_t> own_compute_ns;
    // The calls' own time, by OpCategory: the costed categories', or every one's.
    std::array<PerThreadTime, kCategoryCount> in_calls;
    // The first call of each op per thread that was slow (CallAccounting::cold_calls), its excess
    // share of it.
    PerThreadTime cold_calls;
    // Each copy from pageable memory, the share of its own time that a copy from pinned memory
    // would not take: its bytes at what the GPU's PCIe link moves pinned (analysis/model/
    // pcie_link.hpp). Empty where the trace holds no link.
    PerThreadTime pinning_saves;
};

CauseTimeline cause_timeline(const TraceModel& model, const Roles& roles,
                             const ResolvedFilter& filter, const CallAccounting& accounting,
                             const std::vector<Cause>& causes, bool every_category);

}  // namespace causeway::analysis
