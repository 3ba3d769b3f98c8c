#include "analysis/diagnose/process_roles.hpp"

#include <algorithm>
#include <utility>

#include "analysis/model/saturating.hpp"

namespace causeway::analysis {
namespace {

bool contains(const std::string& text, const char* needle) {
    return text.find(needle) != std::string::npos;
}

bool named_worker(const TraceModel& model, const ProcessInfo& p) {
    if (contains(p.comm, "pt_data_worker")) {
        return true;
    }
    for (int t : p.thread_indices) {
        const ThreadInfo& thread = model.threads[static_cast<std::size_t>(t)];
        if (contains(thread.comm, "pt_data_worker")) {
            return true;
        }
        for (const auto& former : thread.former_comms) {
            if (contains(former, "pt_data_worker")) {
                return true;
            }
        }
    }
    return false;
}

std::int64_t process_cuda_ns(const ProcessInfo& p, const std::vector<std::int64_t>& by_thread) {
    std::int64_t total = 0;
    for (int t : p.thread_indices) {
        add_to(total, by_thread[static_cast<std::size_t>(t)]);
    }
    return total;
}

int tree_root(const TraceModel& model) {
    for (std::size_t p = 0; p < model.processes.size(); ++p) {
        if (model.processes[p].in_tree && model.processes[p].parent_index < 0) {
            return static_cast<int>(p);
        }
    }
    return -1;
}

int max_concurrent(const TraceModel& model, const Roles& roles) {
    std::vector<std::pair<std::int64_t, int>> edges;  // (time, +1 start / -1 exit)
    for (std::size_t p = 0; p < model.processes.size(); ++p) {
        if (roles.process[p] == Role::kDataLoaderWorker) {
            edges.emplace_back(model.processes[p].start_ns.value_or(0), 1);
            if (model.processes[p].exit_ns) {
                edges.emplace_back(*model.processes[p].exit_ns, -1);
            }
        }
    }
    std::sort(edges.begin(), edges.end());  // an exit sorts before a start at the same time
    int alive = 0;
    int most = 0;
    for (const auto& [ts, delta] : edges) {
        alive += delta;
        most = std::max(most, alive);
    }
    return most;
}

// How many sleeps of DataLoader worker threads each thread ended.
std::vector<int> worker_wakeups_by_waker(const TraceModel& model, const Roles& roles) {
    std::vector<int> wakeups(model.threads.size(), 0);
    for (std::size_t t = 0; t < model.threads.size(); ++t) {
        if (roles.thread[t] != Role::kDataLoaderWorker) {
            continue;
        }
        for (const OffCpuInterval& o : model.offcpu_by_thread[t]) {
            if (o.wake == Wake::kThread && o.waker_thread_index >= 0) {
                ++wakeups[static_cast<std::size_t>(o.waker_thread_index)];
            }
        }
    }
    return wakeups;
}

void mark_feeders(const TraceModel& model, Roles& roles) {
    if (roles.worker_processes == 0) {
        return;
    }
    std::vector<int> wakeups = worker_wakeups_by_waker(model, roles);
    for (std::size_t t = 0; t < model.threads.size(); ++t) {
        if (roles.thread[t] == Role::kOther &&
            model.threads[t].process_index == roles.training_process &&
            wakeups[t] >= kMinFeederWakeups) {
            roles.thread[t] = Role::kDataLoaderFeeder;
        }
    }
}

}  // namespace

const char* role_name(Role role) {
    switch (role) {
        case Role::kTraining:
            return "training";
        case Role::kDataLoaderWorker:
            return "dataloader_worker";
        case Role::kPinMemory:
            return "pin_memory";
        case Role::kDataLoaderFeeder:
            return "dataloader_feeder";
        case Role::kOther:
            return "other";
        case Role::kCompetitor:
            break;
    }
    return "competitor";
}

Roles assign_roles(const TraceModel& model) {
    Roles roles;
    roles.cuda_ns_by_thread.assign(model.threads.size(), 0);
    const CudaCalls& c = model.calls;
    for (std::size_t i = 0; i < c.size(); ++i) {
        if (!c.enclosed[i]) {
            add_to(roles.cuda_ns_by_thread[static_cast<std::size_t>(c.thread_index[i])],
                   c.dur_ns[i]);
        }
    }
    std::int64_t best = 0;
    for (std::size_t t = 0; t < model.threads.size(); ++t) {
        if (roles.cuda_ns_by_thread[t] > best &&
            model.process_of_thread(static_cast<int>(t)).in_tree) {
            best = roles.cuda_ns_by_thread[t];
            roles.training_thread = static_cast<int>(t);
        }
    }
    roles.training_process =
        roles.training_thread >= 0
            ? model.threads[static_cast<std::size_t>(roles.training_thread)].process_index
            : tree_root(model);

    roles.process.assign(model.processes.size(), Role::kOther);
    for (std::size_t p = 0; p < model.processes.size(); ++p) {
        const ProcessInfo& process = model.processes[p];
        int index = static_cast<int>(p);
        if (!process.in_tree) {
            roles.process[p] = Role::kCompetitor;
        } else if (index == roles.training_process) {
            roles.process[p] = Role::kTraining;
        } else if (named_worker(model, process) ||
                   (roles.training_process >= 0 && process.parent_index == roles.training_process &&
                    process.comm ==
                        model.processes[static_cast<std::size_t>(roles.training_process)].comm &&
                    process_cuda_ns(process, roles.cuda_ns_by_thread) == 0)) {
            roles.process[p] = Role::kDataLoaderWorker;
            ++roles.worker_processes;
        }
    }
    roles.thread.assign(model.threads.size(), Role::kOther);
    for (std::size_t t = 0; t < model.threads.size(); ++t) {
        const ThreadInfo& thread = model.threads[t];
        Role process_role = roles.process[static_cast<std::size_t>(thread.process_index)];
        if (static_cast<int>(t) == roles.training_thread) {
            roles.thread[t] = Role::kTraining;
        } else if (process_role == Role::kTraining && contains(thread.comm, "pin_mem")) {
            roles.thread[t] = Role::kPinMemory;
        } else if (process_role == Role::kDataLoaderWorker || process_role == Role::kCompetitor) {
            roles.thread[t] = process_role;
        }
    }
    mark_feeders(model, roles);
    roles.max_concurrent_workers = max_concurrent(model, roles);
    return roles;
}

}  // namespace causeway::analysis
