#pragma once
// What the rest of the machine was doing during a set of intervals (e.g. the slow calls):
// runnable threads of the traced tree, page-allocation rate, system snapshots.

#include <cstdint>
#include <utility>
#include <vector>

#include "analysis/model/trace_filter.hpp"
#include "analysis/model/trace_model.hpp"

namespace causeway::analysis {

// Sorted, disjoint [start_ns, end_ns) intervals.
using Intervals = std::vector<std::pair<std::int64_t, std::int64_t>>;

// Total overlap of [start_ns, end_ns) with `merged` (binary search, then a walk).
std::int64_t overlap_with(const Intervals& merged, std::int64_t start_ns, std::int64_t end_ns);

struct SystemContext {
    std::int64_t covered_ns = 0;
    // Threads of the tree that were runnable (running or waiting for a CPU), on average. An
    // estimate: a thread counts from its start to its exit (or its last recorded switch-in)
    // minus its stored sleep intervals; a thread with no stored interval counts by its exact
    // totals (thread_sched_total) spread over its life.
    double runnable_tree_threads = 0;
    // Of the time the tree's threads were runnable, the share they were preempted (their CPU
    // taken by another task): how hard they had to fight for the CPUs they used. The run-queue
    // wait after a wakeup is left out: on an idle VM waking a CPU from idle alone costs tens of
    // microseconds, so a thread that sleeps often would look contended.
    double tree_preempted_share = 0;
    double page_allocs_per_s = 0;          // tree processes, during the intervals
    double page_allocs_per_s_overall = 0;  // tree processes, over the whole range
    std::int64_t snapshots = 0;            // snapshots whose period overlaps the intervals
    double cpu_busy_pct = 0;               // weighted by overlap
    double procs_running = 0;              // system-wide runnable tasks, weighted by overlap
};

SystemContext context_during(const TraceModel& model, const Intervals& merged,
                             const TimeWindow& range);

}  // namespace causeway::analysis
