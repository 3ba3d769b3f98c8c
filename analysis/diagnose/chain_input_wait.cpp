// INPUT-BOUND: the thread that drives the GPU sleeps BETWEEN its CUDA calls, so the GPU has
// nothing queued. Who ended each sleep says what it waited for: DataLoader workers with CPUs
// to spare (more workers), a producer thread, the disk, the network, a timer; where the trace
// holds no waker, the CPUs' headroom still says whether more workers could help.
#include "analysis/diagnose/chain_builders.hpp"
#include "analysis/human_units.hpp"
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

void add_context_evidence(const ChainInputs& in, CausalChain& chain) {
    const SystemContext& ctx = in.during_span;
    std::int64_t cpus = in.model.session.cpu_count;
    if (ctx.snapshots > 0) {
        chain.evidence.push_back(evidence("cpu_busy_pct", ctx.cpu_busy_pct, "pct",
                                          "CPUs were " + format_decimal(ctx.cpu_busy_pct, 0) +
                                              "% busy during the loop (" + std::to_string(cpus) +
                                              " CPUs)"));
    }
    if (ctx.covered_ns > 0) {
        chain.evidence.push_back(evidence(
            "runnable_tree_threads", ctx.runnable_tree_threads, "count",
            "runnable threads of the traced tree: " + format_decimal(ctx.runnable_tree_threads, 1) +
                " on average for " + std::to_string(cpus) + " CPUs"));
        chain.evidence.push_back(evidence("tree_preempted_share", ctx.tree_preempted_share, "ratio",
                                          "the tree's threads were preempted " +
                                              format_percent(ctx.tree_preempted_share) +
                                              " of the time they were runnable"));
    }
    if (in.loader.has_workers()) {
        chain.evidence.push_back(
            evidence("dataloader_workers", in.loader.max_concurrent_workers, "count",
                     std::to_string(in.loader.max_concurrent_workers) +
                         " DataLoader workers at once on " + std::to_string(cpus) + " CPUs"));
    }
}

// Advice about DataLoader workers from the CPUs' headroom: more workers only where there are
// idle CPUs for them.
void recommend_by_headroom(const ChainInputs& in, CausalChain& chain) {
    const SystemContext& ctx = in.during_span;
    bool have_cpu_view = ctx.snapshots > 0 || ctx.covered_ns > 0;
    if (!have_cpu_view) {
        return;
    }
    double idle = idle_cpus(in);
    if (!cpus_saturated(in) && idle >= 0.5) {
        auto more = std::max<std::int64_t>(1, static_cast<std::int64_t>(idle + 0.5));
        if (in.loader.has_workers()) {
            chain.recommendations.push_back(
                {RecommendationKind::kMoreWorkers,
                 {{"num_workers", static_cast<std::int64_t>(in.loader.max_concurrent_workers)},
                  {"more_num_workers",
                   static_cast<std::int64_t>(in.loader.max_concurrent_workers + more)},
                  {"idle_cpus", idle},
                  {"cpus", static_cast<std::int64_t>(in.model.session.cpu_count)}}});
        } else {
            chain.recommendations.push_back({RecommendationKind::kBackgroundLoading});
        }
    } else {
        chain.recommendations.push_back({RecommendationKind::kCheaperLoading});
    }
}

std::string waited_for(const ChainInputs& in, const Cause& cause, const Actor& actor) {
    switch (cause.key.kind) {
        case CauseKind::kDataLoaderWorkers:
            return "batches from its DataLoader workers (" + actor.name + ")";
        case CauseKind::kProducerThread:
        case CauseKind::kWakerThread:
            return "thread " + actor.name + " (tid " + std::to_string(actor.tid) + ")";
        case CauseKind::kProcessesOutside:
            return "process " + actor.name + " outside the tree";
        case CauseKind::kDiskIo:
            return "the disk";
        case CauseKind::kNetwork:
            return "the network";
        case CauseKind::kTimer:
            return "a timer: it sleeps";
        case CauseKind::kInterrupt:
            return "device interrupts";
        case CauseKind::kSeveral:
            return "several sources, none large alone";
        default:
            return in.model.session.imported() || cause.woken.count(WaitKind::kUnknown) > 0
                       ? "its input (a queue, pipe or file; this trace does not record wakers)"
                       : "its input (a queue, pipe or file; the wakeups were not seen)";
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
             {{"worker_generations", static_cast<std::int64_t>(in.loader.worker_generations)}}});
    }
}

}  // namespace

void describe_waiting(const ChainInputs& in, const Cause& cause, CausalChain& chain) {
    const CallAccounting& acc = in.accounting;
    double share = chain.time_lost_share;
    std::int64_t waits = long_wait_count(acc);
    chain.symptom = "the thread that drives the GPU slept " + format_duration(cause.woken_ns()) +
                    " (" + format_percent(in.share_of_span(cause.woken_ns())) +
                    " of its loop) between CUDA calls, waiting for " +
                    waited_for(in, cause, chain.actor);
    chain.evidence.push_back(evidence(
        "between_calls_blocked_share", in.share_of_span(acc.gaps.blocked_ns), "ratio",
        "asleep outside CUDA calls " + format_percent(in.share_of_span(acc.gaps.blocked_ns)) +
            " of " + format_duration(acc.span_ns) + " (all causes); on CPU between calls " +
            format_percent(in.share_of_span(acc.gaps.oncpu_ns())) + ", inside CUDA calls " +
            format_percent(in.share_of_span(acc.in_calls.total_ns))));
    if (waits > 0) {
        std::int64_t waits_ns = 0;
        for (const auto& t : acc.primary) {
            add_to(waits_ns, t.long_wait_ns);
        }
        chain.evidence.push_back(evidence("long_waits", static_cast<double>(waits), "count",
                                          std::to_string(waits) + " waits of at least " +
                                              format_duration(kLongWaitNs) + " between calls, " +
                                              format_duration(waits_ns / waits) + " on average"));
    }
    add_context_evidence(in, chain);
    chain.root_cause = "The thread that drives the GPU waits for " +
                       waited_for(in, cause, chain.actor) + ": " + format_percent(share) +
                       " of its loop, so the GPU has no work queued.";
    recommend_for(in, cause, chain);
    bool waker_known = cause.key.kind != CauseKind::kUnrecordedWaker;
    chain.confidence = share >= 0.3 && (waits >= 3 || waker_known) ? Confidence::kHigh
                       : share >= 0.15                             ? Confidence::kMedium
                                                                   : Confidence::kLow;
}

void describe_lock_wait(const ChainInputs& in, const Cause& cause, CausalChain& chain) {
    const Actor& holder = chain.actor;
    std::string who = holder.name + " (tid " + std::to_string(holder.tid) + ", pid " +
                      std::to_string(holder.pid) + ")";
    chain.symptom = "the thread that drives the GPU slept " + format_duration(cause.woken_ns()) +
                    " (" + format_percent(chain.time_lost_share) +
                    " of its loop) between CUDA calls on a lock, each time woken by " + who;
    add_context_evidence(in, chain);
    chain.root_cause = "The thread that drives the GPU waits for a lock held by thread " + who +
                       ": " + format_percent(chain.time_lost_share) +
                       " of its loop. The holder releases it only after its own work under the "
                       "lock.";
    chain.recommendations.push_back({RecommendationKind::kShorterCriticalSection});
    chain.recommendations.push_back({RecommendationKind::kAvoidGil});
    chain.confidence = chain.time_lost_share >= 0.3 ? Confidence::kHigh : Confidence::kMedium;
}

}  // namespace causeway::analysis
