#include "analysis/diagnose/actor_causes.hpp"

#include <algorithm>

#include "analysis/model/saturating.hpp"

namespace causeway::analysis {
namespace {

bool is_dataloader(Role role) {
    return role == Role::kDataLoaderWorker || role == Role::kPinMemory ||
           role == Role::kDataLoaderFeeder;
}

// The training process a DataLoader thread serves: a worker's parent, or the process of the
// pin-memory thread itself.
int served_process(const TraceModel& model, const Roles& roles, int thread_index) {
    const ThreadInfo& thread = model.threads[static_cast<std::size_t>(thread_index)];
    const ProcessInfo& process = model.processes[static_cast<std::size_t>(thread.process_index)];
    bool worker = roles.thread[static_cast<std::size_t>(thread_index)] == Role::kDataLoaderWorker;
    return worker && process.parent_index >= 0 ? process.parent_index : thread.process_index;
}

CauseKey interrupt_cause(WaitKind kind, Wake wake) {
    switch (kind) {
        case WaitKind::kDiskIo:
            return {CauseKind::kDiskIo};
        case WaitKind::kTimer:
            return {CauseKind::kTimer};
        case WaitKind::kRead:
        case WaitKind::kPoll:
            return {wake == Wake::kSoftIrq ? CauseKind::kNetwork : CauseKind::kInterrupt};
        default:
            return {CauseKind::kInterrupt};
    }
}

// Who ended one sleep of a GPU thread.
CauseKey waker_cause(const TraceModel& model, const Roles& roles, const OffCpuInterval& sleep,
                     WaitKind kind) {
    if (kind == WaitKind::kGil) {
        // The interpreter's timer ended most of these sleeps; the holder ended the wait. A
        // DataLoader's own thread holding it (the feeder pickling the workers' indices) is a
        // cost of the DataLoader.
        const int holder = sleep.gil_holder_index;
        if (holder >= 0 && is_dataloader(roles.thread[static_cast<std::size_t>(holder)])) {
            return {.kind = CauseKind::kDataLoaderWorkers,
                    .process_index = served_process(model, roles, holder)};
        }
        return {.kind = CauseKind::kGilHolder, .thread_index = holder};
    }
    if (kind == WaitKind::kDiskIo || kind == WaitKind::kTimer) {
        return interrupt_cause(kind, sleep.wake);  // whoever ran the completion, it was the disk
    }
    switch (sleep.wake) {
        case Wake::kHardIrq:
        case Wake::kSoftIrq:
            return interrupt_cause(kind, sleep.wake);
        case Wake::kThread:
            break;
        case Wake::kNone:
        case Wake::kUnknown:
            return {CauseKind::kUnrecordedWaker};
    }
    int waker = sleep.waker_thread_index;
    if (waker < 0) {
        return {CauseKind::kUnrecordedWaker};
    }
    Role role = roles.thread[static_cast<std::size_t>(waker)];
    if (is_dataloader(role)) {
        return {.kind = CauseKind::kDataLoaderWorkers,
                .process_index = served_process(model, roles, waker)};
    }
    const ProcessInfo& process = model.process_of_thread(waker);
    if (!process.in_tree) {
        return {.kind = CauseKind::kProcessesOutside,
                .name = model.threads[static_cast<std::size_t>(waker)].comm};
    }
    CauseKind thread_kind = kind == WaitKind::kLock ? CauseKind::kLockHolder
                            : kind == WaitKind::kRead || kind == WaitKind::kPoll
                                ? CauseKind::kProducerThread
                                : CauseKind::kWakerThread;
    return {.kind = thread_kind, .thread_index = waker};
}

// How long `thread` was runnable but not running inside [start_ns, end_ns), by competitor.
std::int64_t preempted_during(const TraceModel& model, int thread, std::int64_t start_ns,
                              std::int64_t end_ns, CompetitorTime& by) {
    const auto& intervals = model.offcpu_by_thread[static_cast<std::size_t>(thread)];
    auto first =
        std::partition_point(intervals.begin(), intervals.end(),
                             [&](const OffCpuInterval& o) { return o.end_ns() <= start_ns; });
    std::int64_t total = 0;
    for (auto it = first; it != intervals.end() && it->ts_ns < end_ns; ++it) {
        std::int64_t from = std::max(start_ns, it->preempted ? it->ts_ns : it->woken_ns());
        std::int64_t ns = std::min(end_ns, it->end_ns()) - from;
        if (ns > 0) {
            add_to(total, ns);
            if (it->preempted) {
                add_to(by[it->next_thread_index], ns);
            }
        }
    }
    return total;
}

void remember_thread(Cause& cause, int thread) {
    if (thread >= 0 &&
        std::find(cause.threads.begin(), cause.threads.end(), thread) == cause.threads.end()) {
        cause.threads.push_back(thread);
    }
}

bool takes_cpu(CauseKind kind) {
    return kind == CauseKind::kDataLoaderWorkers || kind == CauseKind::kProcessesOutside ||
           kind == CauseKind::kTreeThreads || kind == CauseKind::kUnknownCompetitor ||
           kind == CauseKind::kCpuQuota;
}

// The run-queue wait after wakeups, shared among the causes that took the CPU by their
// preempted time; with none, a cause of its own.
void share_run_queue_wait(const CallAccounting& acc, std::map<CauseKey, Cause>& causes) {
    std::int64_t runq = saturating_add(acc.in_calls.wakeup_wait_ns, acc.gaps.wakeup_wait_ns);
    std::int64_t preempted = 0;
    for (const auto& [key, cause] : causes) {
        add_to(preempted, takes_cpu(key.kind) ? cause.preempted_ns : 0);
    }
    if (runq <= 0) {
        return;
    }
    if (preempted <= 0) {
        CauseKey key{CauseKind::kRunQueue};
        causes[key].key = key;
        causes[key].runq_wait_ns = runq;
        return;
    }
    for (auto& [key, cause] : causes) {
        if (takes_cpu(key.kind)) {
            cause.runq_wait_ns = static_cast<std::int64_t>(static_cast<double>(runq) *
                                                           static_cast<double>(cause.preempted_ns) /
                                                           static_cast<double>(preempted));
        }
    }
}

}  // namespace

void Cause::merge(const Cause& other) {
    members.push_back(other.key);
    for (int thread : other.threads) {
        remember_thread(*this, thread);
    }
    add_to(preempted_ns, other.preempted_ns);
    add_to(runq_wait_ns, other.runq_wait_ns);
    for (const auto& [kind, time] : other.woken) {
        add_to(woken[kind].ns, time.ns);
        woken[kind].count += time.count;
    }
    add_to(waker_preempted_ns, other.waker_preempted_ns);
    for (const auto& [thread, ns] : other.waker_preempted_by) {
        add_to(waker_preempted_by[thread], ns);
    }
}

std::int64_t Cause::woken_ns() const {
    std::int64_t ns = 0;
    for (const auto& [kind, time] : woken) {
        add_to(ns, time.ns);
    }
    return ns;
}

std::int64_t Cause::woken_count() const {
    std::int64_t count = 0;
    for (const auto& [kind, time] : woken) {
        count += time.count;
    }
    return count;
}

CauseKey sleep_cause(const TraceModel& model, const Roles& roles, const OffCpuInterval& sleep) {
    return waker_cause(model, roles, sleep, classify_wait(sleep, model.session.machine));
}

CauseKey competitor_cause(const TraceModel& model, const Roles& roles, int thread_index) {
    if (thread_index < 0) {
        // Our collector records no next thread when the kernel throttled the thread (its group
        // used its CPU quota: CFS bandwidth control; the loader drops the bystander that got
        // the CPU), and when the idle task got the CPU while it was runnable, which only the
        // quota does. An imported trace may just not say who ran.
        return {model.session.imported() ? CauseKind::kUnknownCompetitor : CauseKind::kCpuQuota};
    }
    if (is_dataloader(roles.thread[static_cast<std::size_t>(thread_index)])) {
        return {.kind = CauseKind::kDataLoaderWorkers,
                .process_index = served_process(model, roles, thread_index)};
    }
    const ThreadInfo& thread = model.threads[static_cast<std::size_t>(thread_index)];
    if (!model.process_of_thread(thread_index).in_tree) {
        return {.kind = CauseKind::kProcessesOutside, .name = thread.comm};
    }
    return {.kind = CauseKind::kTreeThreads, .process_index = thread.process_index};
}

std::vector<Cause> attribute_causes(const TraceModel& model, const Roles& roles,
                                    const CallAccounting& acc) {
    std::map<CauseKey, Cause> causes;
    auto cause_of = [&causes](const CauseKey& key) -> Cause& {
        Cause& cause = causes[key];
        cause.key = key;
        return cause;
    };
    for (const auto& [thread, ns] : acc.competitors_all) {
        Cause& cause = cause_of(competitor_cause(model, roles, thread));
        add_to(cause.preempted_ns, ns);
        remember_thread(cause, thread);
    }
    for (const ThreadAccount& primary : acc.primary) {
        for (const SleepOverlap& sleep : primary.gap_sleeps) {
            const OffCpuInterval& o = *sleep.interval;
            WaitKind kind = classify_wait(o, model.session.machine);
            Cause& cause = cause_of(sleep_cause(model, roles, o));
            WaitTime& time = cause.woken[kind];
            add_to(time.ns, sleep.asleep_ns);
            ++time.count;
            int actor = kind == WaitKind::kGil    ? o.gil_holder_index
                        : o.wake == Wake::kThread ? o.waker_thread_index
                                                  : -1;
            if (actor < 0) {
                continue;
            }
            remember_thread(cause, actor);
            add_to(cause.waker_preempted_ns,
                   preempted_during(model, actor, o.ts_ns, o.woken_ns(), cause.waker_preempted_by));
        }
    }
    share_run_queue_wait(acc, causes);
    std::vector<Cause> ranked;
    for (auto& [key, cause] : causes) {
        if (cause.lost_ns() > 0) {
            ranked.push_back(std::move(cause));
        }
    }
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const Cause& a, const Cause& b) { return a.lost_ns() > b.lost_ns(); });
    return ranked;
}

}  // namespace causeway::analysis
