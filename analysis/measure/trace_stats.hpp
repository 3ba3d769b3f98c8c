#pragma once
// Trace statistics: per CUDA op (runtime and driver) exact latency distribution, bytes,
// throughput, share of wall time and errors; a host summary; data quality; the time range.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/diagnose/data_quality.hpp"
#include "analysis/measure/distribution.hpp"
#include "analysis/model/trace_filter.hpp"
#include "analysis/model/trace_model.hpp"

namespace causeway::analysis {

struct OpStats {
    std::string op;
    std::string api;       // 'runtime' or 'driver'
    std::string category;  // 'copy', 'sync', ...
    Distribution dur;
    std::int64_t errors = 0;                       // calls that returned non-zero
    std::optional<std::int64_t> common_error;      // the most frequent non-zero return code
    std::int64_t bytes = 0;                        // summed size argument (copies, allocations)
    std::optional<double> throughput_bytes_per_s;  // copies: bytes / time inside the calls
    std::int64_t pageable_calls = 0;               // copies whose host buffer was pageable
    std::int64_t enclosed_calls = 0;               // driver calls made inside a runtime call
    double wall_share = 0;                         // total time / wall time of the range (0..n)
};

struct HostSummary {
    std::int64_t cpu_count = 0;
    std::int64_t processes_in_tree = 0;
    std::int64_t competitor_processes = 0;  // outside the tree, took a CPU from a traced thread
    std::int64_t threads_traced = 0;
    // Exact per-thread totals of the selected traced threads (whole recording).
    std::int64_t oncpu_ns = 0;
    std::int64_t preempted_ns = 0;
    std::int64_t blocked_ns = 0;
    std::int64_t runq_wait_ns = 0;
    std::int64_t voluntary_switches = 0;
    std::int64_t involuntary_switches = 0;
    std::int64_t offcpu_intervals = 0;  // stored intervals in the range
    std::int64_t page_allocs = 0;       // in the range, selected processes
    std::int64_t page_alloc_bytes = 0;
    std::int64_t snapshots = 0;
    double cpu_busy_pct_mean = 0;
    double cpu_busy_pct_max = 0;
    double procs_running_mean = 0;
    double load1_max = 0;
};

struct SessionSummary {
    std::string host;
    std::string kernel;
    std::int64_t cpu_count = 0;
    std::optional<std::string> gpu;
    std::optional<std::string> command_line;
    std::string source;
    std::int64_t start_wall_ns = 0;
    std::int64_t offcpu_floor_ns = 0;
};

struct TraceStats {
    SessionSummary session;
    TimeWindow range;        // what the numbers cover
    std::int64_t calls = 0;  // selected calls, runtime and driver
    std::int64_t error_calls = 0;
    std::vector<OpStats> ops;  // by total time, largest first
    HostSummary host;
    DataQualityReport data_quality;
};

SessionSummary session_summary(const TraceModel& model);
TraceStats compute_stats(const TraceModel& model, const TraceFilter& filter);

}  // namespace causeway::analysis
