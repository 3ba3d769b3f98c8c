#include "analysis/diagnose/dataloader_facts.hpp"

#include <algorithm>
#include <vector>

namespace causeway::analysis {
namespace {

// Workers forked within this of each other belong to one set (one epoch's iterator).
constexpr std::int64_t kGenerationGapNs = 200'000'000;

}  // namespace

DataLoaderFacts dataloader_facts(const TraceModel& model, const Roles& roles) {
    DataLoaderFacts facts;
    facts.workers_seen = roles.worker_processes;
    facts.max_concurrent_workers = roles.max_concurrent_workers;
    for (std::size_t t = 0; t < roles.thread.size(); ++t) {
        facts.pin_memory_thread = facts.pin_memory_thread || roles.thread[t] == Role::kPinMemory;
    }
    std::vector<std::int64_t> starts;
    for (std::size_t p = 0; p < model.processes.size(); ++p) {
        if (roles.process[p] == Role::kDataLoaderWorker && model.processes[p].start_ns) {
            starts.push_back(*model.processes[p].start_ns);
        }
    }
    std::sort(starts.begin(), starts.end());
    for (std::size_t i = 0; i < starts.size(); ++i) {
        if (i == 0 || starts[i] - starts[i - 1] > kGenerationGapNs) {
            ++facts.worker_generations;
        }
    }
    facts.reforked =
        facts.worker_generations >= 2 && facts.workers_seen > facts.max_concurrent_workers;
    return facts;
}

}  // namespace causeway::analysis
