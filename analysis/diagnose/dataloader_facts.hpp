#pragma once
// What the trace says about a PyTorch DataLoader: workers against cores, workers re-forked
// every epoch, a pin-memory thread.

#include <cstdint>

#include "analysis/diagnose/process_roles.hpp"
#include "analysis/model/trace_model.hpp"

namespace causeway::analysis {

struct DataLoaderFacts {
    int workers_seen = 0;            // worker processes over the whole run
    int max_concurrent_workers = 0;  // most alive at one time (num_workers)
    bool pin_memory_thread = false;
    // Workers started at distinct times well after the first ones and more workers than ever
    // ran at once: the loader forks a new set every epoch (persistent_workers=False).
    bool reforked = false;
    int worker_generations = 0;  // sets of workers started

    bool has_workers() const { return workers_seen > 0; }
    bool workers_at_least(std::int64_t cpus) const {
        return max_concurrent_workers > 0 && max_concurrent_workers >= cpus;
    }
};

DataLoaderFacts dataloader_facts(const TraceModel& model, const Roles& roles);

}  // namespace causeway::analysis
