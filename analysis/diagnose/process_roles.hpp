#pragma once
// Who is who in a trace: the training process and thread (the one that spends the most time in
// CUDA), PyTorch DataLoader workers, the pin-memory thread and the feeder threads (by name,
// position in the tree and whom they wake), other processes of the tree, and competitors outside
// it.

#include <string>
#include <vector>

#include "analysis/model/trace_model.hpp"

namespace causeway::analysis {

enum class Role {
    kTraining,
    kDataLoaderWorker,
    kPinMemory,
    kDataLoaderFeeder,
    kOther,
    kCompetitor,
    kLast = kCompetitor,  // the schemas list every role up to this one
};
// 'training', 'dataloader_worker', 'pin_memory', 'dataloader_feeder', 'other', 'competitor'
const char* role_name(Role role);

struct Roles {
    int training_process = -1;  // index into model.processes; -1 when the tree has none
    int training_thread = -1;   // index into model.threads; -1 without CUDA calls
    std::vector<Role> process;  // indexed like model.processes
    std::vector<Role> thread;   // indexed like model.threads
    std::vector<std::int64_t> cuda_ns_by_thread;  // time in CUDA calls, enclosed driver calls
                                                  // not counted twice
    int worker_processes = 0;                     // DataLoader workers seen over the whole run
    int max_concurrent_workers = 0;               // most workers alive at one time
};

// Workers: processes of the tree (not the training one) whose threads are or were named
// pt_data_worker*, or children of the training process with its name and no CUDA calls (a
// Python DataLoader worker before rename). Pin-memory thread: a thread of the training process
// whose name contains "pin_mem". Feeder: another thread of the training process that woke its
// workers at least kMinFeederWakeups times (PyTorch hands batch indices to each worker through a
// multiprocessing.Queue, whose feeder thread writes them to the worker's pipe).
inline constexpr int kMinFeederWakeups = 5;
Roles assign_roles(const TraceModel& model);

}  // namespace causeway::analysis
