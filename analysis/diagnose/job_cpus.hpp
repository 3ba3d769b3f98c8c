#pragma once
// The CPUs a job may run on: the machine's, or fewer where the cpuset or CPU affinity of the
// processes whose threads drive the GPU allows fewer (cgroup_sample.cpus_allowed, at their latest
// samples). DataLoader workers are sized against them, and idle CPUs counted in them.

#include <cstdint>
#include <optional>

#include "analysis/measure/call_accounting.hpp"
#include "analysis/model/trace_model.hpp"

namespace causeway::analysis {

// The fewest CPUs the GPU-driving threads' processes were allowed; std::nullopt when not recorded.
std::optional<std::int64_t> gpu_processes_cpus_allowed(const TraceModel& model,
                                                       const CallAccounting& accounting);
// Those, where fewer than the machine's; else the machine's.
std::int64_t job_cpus(const TraceModel& model, const CallAccounting& accounting);

}  // namespace causeway::analysis
