// Chains by cause: each cause of the GPU threads' time off a CPU becomes one chain whose time
// lost is the sum of its effects, each effect listed with its own number.
#include <algorithm>
#include <map>
#include <set>

#include "analysis/diagnose/chain_builders.hpp"
#include "analysis/model/saturating.hpp"

namespace causeway::analysis {
namespace {

VerdictClass cause_class(const ChainInputs& in, const Cause& cause) {
    std::int64_t cpu_ns = saturating_add(cause.preempted_ns, cause.runq_wait_ns);
    switch (cause.key.kind) {
        case CauseKind::kDataLoaderWorkers:
            // Workers that feed the trainer: on full CPUs they starve it (fewer of them, or none);
            // with CPUs to spare it waits for their batches (more of them).
            return cpus_saturated(in) || cpu_ns >= cause.woken_ns() ? VerdictClass::kCpuContended
                                                                    : VerdictClass::kInputBound;
        case CauseKind::kProcessesOutside:
        case CauseKind::kSeveral:
            return cpu_ns >= cause.woken_ns() ? VerdictClass::kCpuContended
                                              : VerdictClass::kInputBound;
        case CauseKind::kTreeThreads:
        case CauseKind::kUnknownCompetitor:
        case CauseKind::kRunQueue:
            return VerdictClass::kCpuContended;
        case CauseKind::kLockHolder:
            return VerdictClass::kLockContended;
        case CauseKind::kCpuQuota:
            return VerdictClass::kCpuThrottled;
        case CauseKind::kGilHolder:
            return VerdictClass::kGilContended;
        default:
            return VerdictClass::kInputBound;
    }
}

std::vector<std::int64_t> pids_of(const TraceModel& model, const std::vector<int>& threads) {
    std::set<std::int64_t> pids;
    for (int t : threads) {
        pids.insert(model.process_of_thread(t).pid);
    }
    return {pids.begin(), pids.end()};
}

// The most frequent thread name among the actor's threads.
std::string common_name(const TraceModel& model, const std::vector<int>& threads) {
    std::map<std::string, int> counts;
    for (int t : threads) {
        ++counts[model.threads[static_cast<std::size_t>(t)].comm];
    }
    auto top = std::max_element(counts.begin(), counts.end(),
                                [](const auto& a, const auto& b) { return a.second < b.second; });
    return top == counts.end() ? std::string() : top->first;
}

// The container of every one of the threads' processes, where they share one.
std::optional<ContainerIdentity> common_container(const TraceModel& model,
                                                  const std::vector<int>& threads) {
    std::optional<ContainerIdentity> shared;
    for (std::size_t i = 0; i < threads.size(); ++i) {
        const auto& container = model.process_of_thread(threads[i]).container;
        if (!container || (i > 0 && container != shared)) {
            return std::nullopt;
        }
        shared = container;
    }
    return shared;
}

Actor actor_of(const TraceModel& model, const Cause& cause) {
    const CauseKey& key = cause.key;
    Actor actor;
    actor.kind = key.kind;
    actor.pids = pids_of(model, cause.threads);
    actor.container = common_container(model, cause.threads);
    if (key.process_index >= 0) {
        const ProcessInfo& process = model.processes[static_cast<std::size_t>(key.process_index)];
        actor.pid = process.pid;
        actor.in_tree = process.in_tree;
    }
    if (key.thread_index >= 0) {
        const ThreadInfo& thread = model.threads[static_cast<std::size_t>(key.thread_index)];
        actor.tid = thread.tid;
        actor.pid = model.process_of_thread(key.thread_index).pid;
        actor.in_tree = model.process_of_thread(key.thread_index).in_tree;
        actor.name = thread.comm;
        return actor;
    }
    switch (key.kind) {
        case CauseKind::kDataLoaderWorkers:
            actor.name = common_name(model, cause.threads);
            break;
        case CauseKind::kProcessesOutside:
            actor.name = key.name;
            break;
        case CauseKind::kTreeThreads:
            actor.name =
                "threads of " + model.processes[static_cast<std::size_t>(key.process_index)].comm;
            break;
        case CauseKind::kDiskIo:
            actor.name = "disk";
            break;
        case CauseKind::kNetwork:
            actor.name = "network";
            break;
        case CauseKind::kTimer:
            actor.name = "timer";
            break;
        case CauseKind::kInterrupt:
            actor.name = "interrupts";
            break;
        case CauseKind::kUnknownCompetitor:
            actor.name = "<thread not recorded>";
            break;
        case CauseKind::kRunQueue:
            actor.name = "run queue";
            break;
        case CauseKind::kCpuQuota:
            actor.name = "CPU quota";
            break;
        case CauseKind::kGilHolder:
            actor.name = "<holder not recorded>";
            break;
        case CauseKind::kSeveral:
            actor.name = "several causes";
            break;
        default:
            actor.name = "unknown";
            break;
    }
    if (actor.name.empty()) {
        actor.name = cause_kind_name(key.kind);
    }
    return actor;
}

std::vector<Effect> effects_of(const ChainInputs& in, const Cause& cause) {
    std::vector<Effect> effects;
    auto add = [&](EffectKind kind, std::optional<WaitKind> wait, std::int64_t ns,
                   std::int64_t count) {
        effects.push_back({kind, wait, ns, in.share_of_span(ns), count});
    };
    if (cause.preempted_ns > 0) {
        add(EffectKind::kPreempted, std::nullopt, cause.preempted_ns, 0);
    }
    if (cause.runq_wait_ns > 0) {
        add(EffectKind::kRunqWait, std::nullopt, cause.runq_wait_ns, 0);
    }
    for (const auto& [kind, time] : cause.woken) {
        add(EffectKind::kWoken, kind, time.ns, time.count);
    }
    std::stable_sort(effects.begin(), effects.end(),
                     [](const Effect& a, const Effect& b) { return a.ns > b.ns; });
    return effects;
}

// One hop back along the wakeup: the threads that woke it were themselves runnable but not
// running for part of those waits, mostly behind one thread {waits_share, behind_comm,
// behind_tid}.
void add_waker_delay(const ChainInputs& in, const Cause& cause, CausalChain& chain) {
    if (cause.waker_preempted_ns <= 0 || cause.woken_ns() <= 0) {
        return;
    }
    double ratio =
        static_cast<double>(cause.waker_preempted_ns) / static_cast<double>(cause.woken_ns());
    FactParams params = {{Fact::kWaitsShare, ratio}};
    auto top = std::max_element(cause.waker_preempted_by.begin(), cause.waker_preempted_by.end(),
                                [](const auto& a, const auto& b) { return a.second < b.second; });
    if (top != cause.waker_preempted_by.end() && top->first >= 0) {
        const ThreadInfo& t = in.model.threads[static_cast<std::size_t>(top->first)];
        params.push_back({Fact::kBehindComm, t.comm});
        params.push_back({Fact::kBehindTid, t.tid});
    }
    chain.evidence.push_back(make_evidence(EvidenceKind::kWakerRunnableWaiting,
                                           static_cast<double>(cause.waker_preempted_ns),
                                           std::move(params)));
}

// Causes below the threshold of one class together, when together they reach it.
std::vector<Cause> merge_minor_causes(const ChainInputs& in, std::vector<Cause> causes) {
    std::vector<Cause> kept;
    std::map<std::string, Cause> minor;
    for (auto& cause : causes) {
        if (in.share_of_span(cause.lost_ns()) >= kChainMinShare) {
            kept.push_back(std::move(cause));
            continue;
        }
        // By the class's name: the order in which merged groups are kept.
        Cause& group = minor[verdict_class_name(cause_class(in, cause))];
        group.key.kind = CauseKind::kSeveral;
        group.merge(cause);
    }
    for (auto& [cls, group] : minor) {
        if (in.share_of_span(group.lost_ns()) >= kChainMinShare) {
            if (group.members.size() == 1) {
                // One cause alone cannot reach the threshold: nothing to merge.
                continue;
            }
            kept.push_back(std::move(group));
        }
    }
    return kept;
}

}  // namespace

std::vector<CausalChain> actor_chains(const ChainInputs& in) {
    std::vector<CausalChain> chains;
    if (in.accounting.span_ns == 0) {
        return chains;
    }
    auto causes = merge_minor_causes(in, in.causes);
    for (const Cause& cause : causes) {
        CausalChain chain;
        chain.root_cause_class = cause_class(in, cause);
        chain.actor = actor_of(in.model, cause);
        chain.effects = effects_of(in, cause);
        chain.time_lost_ns = cause.lost_ns();
        chain.time_lost_share = in.share_of_span(chain.time_lost_ns);
        chain.critical_path = cause_cost(in, cause);
        add_waker_delay(in, cause, chain);
        if (chain.root_cause_class == VerdictClass::kCpuContended) {
            describe_cpu_contention(in, cause, chain);
        } else if (chain.root_cause_class == VerdictClass::kLockContended) {
            describe_lock_wait(in, cause, chain);
        } else if (chain.root_cause_class == VerdictClass::kCpuThrottled) {
            describe_cpu_quota(in, cause, chain);
        } else if (chain.root_cause_class == VerdictClass::kGilContended) {
            describe_gil_wait(in, cause, chain);
        } else {
            describe_waiting(in, cause, chain);
        }
        add_actor_code_lines(in, cause, chain);
        chains.push_back(std::move(chain));
    }
    return chains;
}

}  // namespace causeway::analysis
