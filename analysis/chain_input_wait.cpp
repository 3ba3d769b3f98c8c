// INPUT-BOUND: the thread that drives the GPU sleeps BETWEEN its CUDA calls (waiting on a
// DataLoader queue, a pipe, a file), so the GPU has nothing queued. Whether more workers would
// help depends on whether the CPUs had room.
#include "analysis/chain_builders.hpp"
#include "analysis/human_units.hpp"

namespace causeway::analysis {
namespace {

// Below this average CPU use the machine had idle cores to load data with.
constexpr double kIdleCpuBusyPct = 80.0;

std::int64_t long_wait_count(const CallAccounting& acc) {
    std::int64_t waits = 0;
    for (const auto& t : acc.primary) {
        waits += t.long_waits;
    }
    return waits;
}

std::int64_t long_wait_ns(const CallAccounting& acc) {
    std::int64_t ns = 0;
    for (const auto& t : acc.primary) {
        ns += t.long_wait_ns;
    }
    return ns;
}

}  // namespace

std::optional<CausalChain> input_wait_chain(const ChainInputs& in) {
    const CallAccounting& acc = in.accounting;
    std::int64_t lost = acc.gaps.blocked_ns;
    double share = in.share_of_span(lost);
    if (acc.span_ns == 0 || share < kChainMinShare) {
        return std::nullopt;
    }
    CausalChain chain;
    chain.root_cause_class = kInputBound;
    chain.time_lost_ns = lost;
    chain.time_lost_share = share;
    std::int64_t waits = long_wait_count(acc);
    std::int64_t waits_ns = long_wait_ns(acc);
    chain.symptom = "the thread that drives the GPU slept " + format_duration(lost) + " (" +
                    format_percent(share) + " of its loop) between CUDA calls";
    chain.evidence.push_back(evidence(
        "between_calls_blocked_share", share, "ratio",
        "asleep outside CUDA calls " + format_percent(share) + " of " +
            format_duration(acc.span_ns) + "; on CPU between calls " +
            format_percent(in.share_of_span(acc.gaps.oncpu_ns())) + ", inside CUDA calls " +
            format_percent(in.share_of_span(acc.in_calls.total_ns))));
    if (waits > 0) {
        chain.evidence.push_back(evidence("long_waits", static_cast<double>(waits), "count",
                                          std::to_string(waits) + " waits of at least " +
                                              format_duration(kLongWaitNs) + " between calls, " +
                                              format_duration(waits_ns / waits) + " on average"));
    }
    const SystemContext& ctx = in.during_span;
    std::int64_t cpus = in.model.session.cpu_count;
    bool have_cpu_view = ctx.snapshots > 0 || ctx.covered_ns > 0;
    bool idle_cpus = ctx.snapshots > 0
                         ? ctx.cpu_busy_pct < kIdleCpuBusyPct
                         : ctx.runnable_tree_threads < static_cast<double>(cpus) - 0.5;
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
    }
    const DataLoaderFacts& loader = in.loader;
    if (loader.has_workers()) {
        chain.evidence.push_back(
            evidence("dataloader_workers", loader.max_concurrent_workers, "count",
                     std::to_string(loader.max_concurrent_workers) +
                         " DataLoader workers at once on " + std::to_string(cpus) + " CPUs"));
    }
    chain.root_cause =
        "The thread that drives the GPU waits for its input: it sleeps between CUDA calls (on "
        "a queue, pipe or file) for " +
        format_percent(share) + " of its loop, so the GPU has no work queued.";
    if (have_cpu_view && idle_cpus) {
        if (loader.has_workers()) {
            chain.recommendations.push_back(
                "Load faster in parallel: raise num_workers (now " +
                std::to_string(loader.max_concurrent_workers) + ", " + std::to_string(cpus) +
                " CPUs) or prefetch_factor; the training thread waited while CPUs had room.");
        } else {
            chain.recommendations.push_back(
                "Prepare batches in the background (DataLoader num_workers > 0, prefetching): "
                "the training thread waited while CPUs had room.");
        }
    } else if (have_cpu_view) {
        chain.recommendations.push_back(
            "The CPUs are saturated, so more workers will not help: make loading cheaper "
            "(pre-process once, cache decoded samples, index in-memory tensors directly).");
    }
    if (loader.reforked) {
        chain.recommendations.push_back(
            "Set persistent_workers=True: a new set of DataLoader workers was forked " +
            std::to_string(loader.worker_generations) +
            " times, and each epoch waits for them to start.");
    }
    chain.confidence = share >= 0.3 && waits >= 3 ? Confidence::kHigh
                       : share >= 0.15            ? Confidence::kMedium
                                                  : Confidence::kLow;
    return chain;
}

}  // namespace causeway::analysis
