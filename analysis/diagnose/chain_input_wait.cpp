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
                "Load faster in parallel: raise num_workers from " +
                std::to_string(in.loader.max_concurrent_workers) + " to " +
                std::to_string(in.loader.max_concurrent_workers + more) + " (about " +
                format_decimal(idle, 1) + " of " + std::to_string(in.model.session.cpu_count) +
                " CPUs were idle while the training thread waited), or raise prefetch_factor.");
        } else {
            chain.recommendations.push_back(
                "Prepare batches in the background (DataLoader num_workers > 0, prefetching): "
                "the training thread waited while CPUs had room.");
        }
    } else {
        chain.recommendations.push_back(
            "The CPUs are saturated, so more workers will not help: make loading cheaper "
            "(pre-process once, cache decoded samples, index in-memory tensors directly).");
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
            chain.recommendations.push_back(
                "Reading from disk holds the loop: keep the data set in the page cache or in "
                "memory, move it to faster storage, or prefetch it in background workers.");
            break;
        case CauseKind::kTimer:
            chain.recommendations.push_back(
                "The training loop sleeps (a time.sleep, a polling interval or a timed wait): "
                "remove or shorten the sleep.");
            break;
        case CauseKind::kNetwork:
            chain.recommendations.push_back(
                "Input arrives over the network: prefetch it, cache it locally, or read it with "
                "more parallel streams.");
            break;
        case CauseKind::kProducerThread:
        case CauseKind::kWakerThread:
            chain.recommendations.push_back(
                "The training thread waits for " + chain.actor.name + " (tid " +
                std::to_string(chain.actor.tid) +
                "): make its work cheaper or run more producers, so that the next input is "
                "ready when the step ends.");
            break;
        case CauseKind::kProcessesOutside:
            chain.recommendations.push_back("The training thread waits for " + chain.actor.name +
                                            ", a process outside the traced tree: speed it up "
                                            "or record it too (trace its process tree).");
            break;
        default:
            recommend_by_headroom(in, chain);
            break;
    }
    if (in.loader.reforked && (cause.key.kind == CauseKind::kDataLoaderWorkers ||
                               cause.key.kind == CauseKind::kUnrecordedWaker)) {
        chain.recommendations.push_back(
            "Set persistent_workers=True: a new set of DataLoader workers was forked " +
            std::to_string(in.loader.worker_generations) +
            " times, and each epoch waits for them to start.");
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
    chain.recommendations.push_back(
        "Shorten " + holder.name +
        "'s critical section or move its work out of the lock (copy "
        "what it needs under the lock, compute outside it); a queue or double buffer instead of "
        "a shared lock lets the training thread go on.");
    chain.recommendations.push_back(
        "If " + holder.name +
        " runs Python code, the lock may be the GIL: move its work to a process, or to code "
        "that releases the GIL (torch ops, numpy).");
    chain.confidence = chain.time_lost_share >= 0.3 ? Confidence::kHigh : Confidence::kMedium;
}

}  // namespace causeway::analysis
