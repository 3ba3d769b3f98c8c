#pragma once
// Where the time of the threads that drive the GPU goes, measured per call against each
// thread's OWN off-CPU intervals: inside CUDA calls and in the gaps between them; which calls
// are slow; how much of the slow calls their own thread spent preempted, waiting or asleep, and
// who had the CPU. This is the evidence every causal chain is built from.
//
// Counting rules:
//  * Accounted calls: runtime calls, and driver calls not enclosed by a runtime call (an app
//    calling the driver directly), so no time is counted twice.
//  * Primary threads: per process of the tree, the thread with the most CUDA time, when it has
//    at least a quarter of the busiest thread's (one per rank in multi-process training). Gaps
//    between calls, and the span the shares are relative to, are theirs.
//  * Slow call: dur > max(kSlowFactor x p50 of its op, p50 + kSlowFloorNs) over the accounted
//    calls of that op in the selection: relative to the op's own typical cost, with an absolute
//    floor so microsecond jitter of a microsecond op is not "slow".

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "analysis/diagnose/process_roles.hpp"
#include "analysis/measure/distribution.hpp"
#include "analysis/measure/offcpu_overlap.hpp"
#include "analysis/model/trace_filter.hpp"
#include "analysis/model/trace_model.hpp"

namespace causeway::analysis {

inline constexpr std::int64_t kSlowFactor = 4;
inline constexpr std::int64_t kSlowFloorNs = 50'000;
// A wait between calls at least this long counts as one "wait for input" episode.
inline constexpr std::int64_t kLongWaitNs = 1'000'000;
inline constexpr std::size_t kCategoryCount = 8;

struct OpAccount {
    int op_index = -1;
    Distribution dur;  // accounted calls of the selection
    std::int64_t threshold_ns = 0;
    std::int64_t slow_calls = 0;
    std::int64_t slow_ns = 0;
    std::int64_t excess_ns = 0;  // sum over slow calls of (dur - p50)
    TimeSplit slow_split;        // slow calls against their own thread's off-CPU time
};

struct ThreadAccount {
    int thread_index = -1;
    std::int64_t span_start_ns = 0;  // first accounted call's entry
    std::int64_t span_end_ns = 0;    // last accounted call's return
    std::int64_t calls = 0;
    TimeSplit in_calls;
    TimeSplit gaps;
    std::array<TimeSplit, kCategoryCount> by_category{};  // in calls, by OpCategory
    std::int64_t long_waits = 0;                          // gaps asleep >= kLongWaitNs
    std::int64_t long_wait_ns = 0;
    std::vector<SleepOverlap> gap_sleeps;  // each sleep between calls, in time order

    std::int64_t span_ns() const { return span_end_ns - span_start_ns; }
};

struct CallAccounting {
    std::vector<ThreadAccount> primary;  // primary threads (see above)
    std::vector<OpAccount> ops;          // ops with accounted calls, by excess time
    std::int64_t accounted_calls = 0;
    std::int64_t span_ns = 0;  // sum of the primary threads' spans
    TimeSplit in_calls;        // primary threads, summed
    TimeSplit gaps;
    std::array<TimeSplit, kCategoryCount> by_category{};
    std::vector<std::uint32_t> slow_calls;  // call indices, all threads of the tree
    TimeSplit slow_split;
    std::int64_t slow_excess_ns = 0;
    // Intervals covered by slow calls, merged and sorted.
    std::vector<std::pair<std::int64_t, std::int64_t>> slow_intervals;
    CompetitorTime competitors_slow;  // preempted time inside slow calls, by who had the CPU
    CompetitorTime competitors_all;   // preempted time of the primary threads over their span
    // One-time start-up: for each thread and op, the first call when it was slow (whole
    // traces only; a window that starts later has no "first" call).
    std::int64_t cold_excess_ns = 0;
    std::vector<std::uint32_t> cold_calls;
    // The same excess by OpCategory, so other chains do not count start-up time again.
    std::array<std::int64_t, kCategoryCount> cold_excess_by_category{};
    // Copies of the tree (accounted calls): how many, how big, how many from pageable memory.
    std::int64_t copy_calls = 0;
    std::int64_t copy_bytes = 0;
    std::int64_t pageable_copy_bytes = 0;
    std::int64_t small_copies = 0;  // below kSmallCopyBytes
};

inline constexpr std::int64_t kSmallCopyBytes = 64 * 1024;

CallAccounting account_calls(const TraceModel& model, const Roles& roles,
                             const ResolvedFilter& filter);

}  // namespace causeway::analysis
