// GPU-BOUND: the thread that drives the GPU spends its loop in synchronisation, on CPU spinning
// or asleep in the sync itself (not preempted), and the host is otherwise idle.
#include "analysis/diagnose/chain_builders.hpp"
#include "analysis/human_units.hpp"

namespace causeway::analysis {

std::optional<CausalChain> gpu_bound_chain(const ChainInputs& in) {
    const CallAccounting& acc = in.accounting;
    const TimeSplit& sync = acc.by_category[static_cast<std::size_t>(OpCategory::kSync)];
    std::int64_t lost = category_own_ns(acc, OpCategory::kSync);
    double share = in.share_of_span(lost);
    if (acc.span_ns == 0 || share < kGpuBoundMinShare) {
        return std::nullopt;
    }
    CausalChain chain;
    chain.root_cause_class = kGpuBound;
    chain.time_lost_ns = lost;
    chain.time_lost_share = share;
    const OpAccount* top = nullptr;
    for (const auto& op : acc.ops) {
        const OpInfo& info = in.model.ops[static_cast<std::size_t>(op.op_index)];
        if (info.category == OpCategory::kSync &&
            (top == nullptr || op.dur.total_ns > top->dur.total_ns)) {
            top = &op;
        }
    }
    if (top != nullptr) {
        chain.op = in.model.ops[static_cast<std::size_t>(top->op_index)].name;
    }
    chain.symptom =
        "the host waits for the GPU in synchronisation " + format_percent(share) + " of its loop" +
        (top != nullptr ? " (mostly " + *chain.op + ", p50 " + format_duration(top->dur.p50_ns) +
                              ", " + std::to_string(top->dur.count) + " calls)"
                        : "");
    double runnable = sync.total_ns > 0 ? static_cast<double>(sync.runnable_waiting_ns()) /
                                              static_cast<double>(sync.total_ns)
                                        : 0.0;
    chain.evidence.push_back(evidence(
        "sync_share", share, "ratio",
        "in synchronisation and not preempted: " + format_duration(lost) + " of " +
            format_duration(acc.span_ns) + " (on CPU spinning " + format_duration(sync.oncpu_ns()) +
            ", asleep " + format_duration(sync.blocked_ns) + ")"));
    chain.evidence.push_back(evidence(
        "sync_runnable_waiting_share", runnable, "ratio",
        "inside the synchronisations the thread was runnable but not running only " +
            format_percent(runnable) + " of the time: the wait is the GPU's, not the CPU's"));
    const SystemContext& ctx = in.during_span;
    bool host_idle = ctx.snapshots == 0 || ctx.cpu_busy_pct < 80.0;
    if (ctx.snapshots > 0) {
        chain.evidence.push_back(evidence(
            "cpu_busy_pct", ctx.cpu_busy_pct, "pct",
            "CPUs were " + format_decimal(ctx.cpu_busy_pct, 0) + "% busy during the loop"));
    }
    chain.root_cause =
        "The GPU is the bottleneck: the host has queued its work and waits for "
        "the device " +
        format_percent(share) + " of the loop.";
    chain.recommendations.push_back({RecommendationKind::kFasterDeviceWork});
    chain.confidence = runnable < 0.1 && host_idle ? Confidence::kHigh : Confidence::kMedium;
    blame_device(chain, "device", "GPU", "in_device");
    return chain;
}

}  // namespace causeway::analysis
