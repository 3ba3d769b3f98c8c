#include "analysis/diagnose/job_cpus.hpp"

#include <map>

namespace causeway::analysis {

std::optional<std::int64_t> gpu_processes_cpus_allowed(const TraceModel& model,
                                                       const CallAccounting& accounting) {
    std::map<int, std::int64_t> latest;  // by process
    for (const ThreadAccount& primary : accounting.primary) {
        latest.emplace(model.threads[static_cast<std::size_t>(primary.thread_index)].process_index,
                       0);
    }
    for (const CgroupSample& sample : model.cgroup_samples) {  // in time order
        auto it = latest.find(sample.process_index);
        if (it != latest.end() && sample.cpus_allowed) {
            it->second = *sample.cpus_allowed;
        }
    }
    std::optional<std::int64_t> fewest;
    for (const auto& [process, cpus] : latest) {
        if (cpus > 0 && (!fewest || cpus < *fewest)) {
            fewest = cpus;
        }
    }
    return fewest;
}

std::int64_t job_cpus(const TraceModel& model, const CallAccounting& accounting) {
    const std::int64_t machine = model.session.cpu_count;
    const auto allowed = gpu_processes_cpus_allowed(model, accounting);
    return allowed && (machine <= 0 || *allowed < machine) ? *allowed : machine;
}

}  // namespace causeway::analysis
