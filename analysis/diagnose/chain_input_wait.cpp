// INPUT-BOUND: the thread that drives the GPU sleeps BETWEEN its CUDA calls, so the GPU has
// nothing queued. Who ended each sleep says what it waited for: DataLoader workers with CPUs
// to spare (more workers), a producer thread, the disk, the network, a timer; where the trace
// holds no waker, the CPUs' headroom still says whether more workers could help.
#include "analysis/diagnose/chain_builders.hpp"
#include "analysis/model/saturating.hpp"

namespace causeway::analysis {
namespace {

std::int64_t long_wait_count(const CallAccounting& acc) {
    std::int64_t waits = 0;
    for (const auto& t : acc.primary) {
        waits += t.long_waits;
    }
    return waits;
}

// Advice about DataLoader workers from the CPUs' headroom: more workers only where there are
// idle CPUs for them and the workers do not outnumber the CPUs already. Where they do and CPUs
// sat idle, the workers were not what was short: the training thread receives every batch itself.
void recommend_by_headroom(const ChainInputs& in, CausalChain& chain) {
    const SystemContext& ctx = in.during_span;
    bool have_cpu_view = ctx.snapshots > 0 || ctx.covered_ns > 0;
    if (!have_cpu_view) {
        return;
    }
    double idle = idle_cpus(in);
    if (!cpus_saturated(in) && idle >= 0.5) {
        auto more = std::max<std::int64_t>(1, static_cast<std::int64_t>(idle + 0.5));
        if (in.loader.workers_at_least(in.job_cpus)) {
            chain.recommendations.push_back({RecommendationKind::kIndexInMemory});
            chain.recommendations.push_back(
                {RecommendationKind::kWorkersOutnumberCpus,
                 {{Fact::kNumWorkers, static_cast<std::int64_t>(in.loader.max_concurrent_workers)},
                  {Fact::kIdleCpus, idle},
                  {Fact::kCpus, in.job_cpus}}});
        } else if (in.loader.has_workers()) {
            const auto workers = static_cast<std::int64_t>(in.loader.max_concurrent_workers);
            chain.recommendations.push_back({RecommendationKind::kMoreWorkers,
                                             {{Fact::kNumWorkers, workers},
                                              {Fact::kMoreNumWorkers, workers + more},
                                              {Fact::kIdleCpus, idle},
                                              {Fact::kCpus, in.job_cpus}}});
            // The loop waits for its workers, so it runs at their pace: with CPUs to spare,
            // workers + more of them load (workers + more) / workers as fast, up to the loop
            // without the wait.
            if (chain.critical_path && workers > 0) {
                chain.critical_path->advised_fix =
                    advised_fix(RecommendationKind::kMoreWorkers, *chain.critical_path,
                                static_cast<double>(workers + more) / static_cast<double>(workers));
            }
        } else {
            chain.recommendations.push_back({RecommendationKind::kBackgroundLoading});
        }
    } else {
        chain.recommendations.push_back({RecommendationKind::kCheaperLoading});
    }
}

void recommend_for(const ChainInputs& in, const Cause& cause, CausalChain& chain) {
    switch (cause.key.kind) {
        case CauseKind::kDiskIo:
            chain.recommendations.push_back({RecommendationKind::kDataInMemory});
            break;
        case CauseKind::kTimer:
            chain.recommendations.push_back({RecommendationKind::kRemoveSleep});
            break;
        case CauseKind::kNetwork:
            chain.recommendations.push_back({RecommendationKind::kPrefetchNetworkInput});
            break;
        case CauseKind::kProducerThread:
        case CauseKind::kWakerThread:
            chain.recommendations.push_back({RecommendationKind::kFasterProducer});
            break;
        case CauseKind::kProcessesOutside:
            chain.recommendations.push_back({RecommendationKind::kFasterOutsideProcess});
            break;
        default:
            recommend_by_headroom(in, chain);
            break;
    }
    if (in.loader.reforked && (cause.key.kind == CauseKind::kDataLoaderWorkers ||
                               cause.key.kind == CauseKind::kUnrecordedWaker)) {
        chain.recommendations.push_back(
            {RecommendationKind::kPersistentWorkers,
             {{Fact::kWorkerGenerations,
               static_cast<std::int64_t>(in.loader.worker_generations)}}});
    }
}

// The symptom's and root cause's facts: how long it slept between calls {slept_ns, slept_share}
// and, where the actor is no waker the trace names, whether the trace records wakers at all
// {wakers_unrecorded: 0/1}.
void add_sleep_facts(const ChainInputs& in, const Cause& cause, CausalChain& chain) {
    bool wakers_unrecorded =
        in.model.session.imported() || cause.woken.count(WaitKind::kUnknown) > 0;
    chain.facts = {{Fact::kSleptNs, cause.woken_ns()},
                   {Fact::kSleptShare, in.share_of_span(cause.woken_ns())},
                   {Fact::kWakersUnrecorded, std::int64_t{wakers_unrecorded ? 1 : 0}}};
}

}  // namespace

void add_wait_context_evidence(const ChainInputs& in, CausalChain& chain) {
    const SystemContext& ctx = in.during_span;
    if (ctx.snapshots > 0) {
        chain.evidence.push_back(make_evidence(EvidenceKind::kCpuBusyOfCpus, ctx.cpu_busy_pct,
                                               {{Fact::kCpus, in.model.session.cpu_count}}));
    }
    if (ctx.covered_ns > 0) {
        chain.evidence.push_back(
            make_evidence(EvidenceKind::kRunnableTreeThreads, ctx.runnable_tree_threads,
                          {{Fact::kCpus, in.job_cpus}, {Fact::kDuringSlowCalls, std::int64_t{0}}}));
        chain.evidence.push_back(
            make_evidence(EvidenceKind::kTreePreemptedShare, ctx.tree_preempted_share));
    }
    if (in.loader.has_workers()) {
        chain.evidence.push_back(make_evidence(EvidenceKind::kDataLoaderWorkers,
                                               in.loader.max_concurrent_workers,
                                               {{Fact::kCpus, in.job_cpus}}));
    }
}

void describe_waiting(const ChainInputs& in, const Cause& cause, CausalChain& chain) {
    const CallAccounting& acc = in.accounting;
    double share = chain.time_lost_share;
    std::int64_t waits = long_wait_count(acc);
    add_sleep_facts(in, cause, chain);
    chain.evidence.push_back(make_evidence(
        EvidenceKind::kBlockedBetweenCallsShare, in.share_of_span(acc.gaps.blocked_ns),
        {{Fact::kSpanNs, acc.span_ns},
         {Fact::kOncpuShare, in.share_of_span(acc.gaps.oncpu_ns())},
         {Fact::kInCallsShare, in.share_of_span(acc.in_calls.total_ns)}}));
    if (waits > 0) {
        std::int64_t waits_ns = 0;
        for (const auto& t : acc.primary) {
            add_to(waits_ns, t.long_wait_ns);
        }
        chain.evidence.push_back(
            make_evidence(EvidenceKind::kLongWaits, static_cast<double>(waits),
                          {{Fact::kMinNs, kLongWaitNs}, {Fact::kAverageNs, waits_ns / waits}}));
    }
    add_wait_context_evidence(in, chain);
    recommend_for(in, cause, chain);
    bool waker_known = cause.key.kind != CauseKind::kUnrecordedWaker;
    chain.confidence = share >= 0.3 && (waits >= 3 || waker_known) ? Confidence::kHigh
                       : share >= 0.15                             ? Confidence::kMedium
                                                                   : Confidence::kLow;
}

void describe_lock_wait(const ChainInputs& in, const Cause& cause, CausalChain& chain) {
    // The symptom and root cause name the holder (the chain's actor).
    add_sleep_facts(in, cause, chain);
    add_wait_context_evidence(in, chain);
    chain.recommendations.push_back({RecommendationKind::kShorterCriticalSection});
    chain.recommendations.push_back({RecommendationKind::kAvoidGil});
    chain.confidence = chain.time_lost_share >= 0.3 ? Confidence::kHigh : Confidence::kMedium;
}

}  // namespace causeway::analysis
