#pragma once
// One row per process (threads on demand): role, parent, lifetime, CUDA time by op with
// percentiles, CPU time, off-CPU time split into preempted / asleep / run-queue wait, worst
// stall, switches, page allocations, forks and exit.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/diagnose/process_roles.hpp"
#include "analysis/measure/distribution.hpp"
#include "analysis/model/trace_filter.hpp"
#include "analysis/model/trace_model.hpp"

namespace causeway::analysis {

struct OpBreakdown {
    std::string op;
    Distribution dur;
};

// Scheduling numbers: exact per-thread totals from thread_sched_total (whole recording, also
// below the interval floor); the worst stall is the longest stored off-CPU interval.
struct SchedBreakdown {
    std::int64_t oncpu_ns = 0;
    std::int64_t preempted_ns = 0;
    std::int64_t blocked_ns = 0;
    std::int64_t runq_wait_ns = 0;
    std::int64_t voluntary_switches = 0;
    std::int64_t involuntary_switches = 0;
    std::int64_t worst_stall_ns = 0;
    std::string worst_stall_reason;  // 'preempted', 'blocked'; empty when none stored
    std::int64_t worst_stall_at_ns = 0;
};

struct ThreadRow {
    std::int64_t tid = 0;
    std::string comm;
    Role role = Role::kOther;
    std::int64_t cuda_calls = 0;
    std::int64_t cuda_ns = 0;
    SchedBreakdown sched;
};

struct ProcessRow {
    std::int64_t pid = 0;
    std::optional<std::int64_t> ppid;
    std::string comm;
    std::optional<std::string> cmdline;
    Role role = Role::kOther;
    bool in_tree = true;
    std::optional<std::string> cgroup;           // its latest cgroup; NULL: not sampled
    std::optional<ContainerIdentity> container;  // the container and pod that path names
    std::optional<std::int64_t> start_ns;        // NULL: before recording
    std::optional<std::int64_t> exit_ns;         // NULL: alive at the end
    std::optional<std::int64_t> exit_code;
    std::int64_t lifetime_ns = 0;  // within the recording
    std::int64_t thread_count = 0;
    std::int64_t cuda_calls = 0;  // runtime calls plus driver calls not inside one
    std::int64_t cuda_ns = 0;
    std::vector<OpBreakdown> cuda_ops;  // by total time
    SchedBreakdown sched;
    // A competitor (outside the tree): how long traced threads were runnable but not running
    // after it preempted them (ns). Only competitors that took some CPU get a row; 0 in the tree.
    std::int64_t cpu_taken_ns = 0;
    std::int64_t page_allocs = 0;
    std::int64_t page_alloc_bytes = 0;
    std::int64_t forks = 0;          // children seen in the trace
    std::vector<ThreadRow> threads;  // only when asked for
};

struct BreakdownOptions {
    bool include_threads = false;
    std::size_t max_processes = 0;  // 0: all
};

struct ProcessBreakdown {
    std::vector<ProcessRow> processes;  // training first, then by CUDA time, then CPU time
    std::int64_t total_processes = 0;   // before max_processes
};

ProcessBreakdown process_breakdown(const TraceModel& model, const Roles& roles,
                                   const TraceFilter& filter, const BreakdownOptions& options);

}  // namespace causeway::analysis
