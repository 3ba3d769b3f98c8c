#include "analysis/diagnose/chain_builders.hpp"

#include <algorithm>
#include <utility>

#include "analysis/human_units.hpp"

namespace causeway::analysis {

Evidence evidence(std::string key, double value, std::string unit, std::string text) {
    return {std::move(key), value, std::move(unit), std::move(text)};
}

bool cpus_saturated(const ChainInputs& in) {
    const SystemContext& ctx = in.during_span;
    if (ctx.covered_ns > 0 && ctx.runnable_tree_threads > 0) {
        return ctx.runnable_tree_threads >= static_cast<double>(in.model.session.cpu_count) - 0.5 ||
               ctx.tree_preempted_share >= kSaturatedPreemptedShare;
    }
    return ctx.snapshots > 0 && ctx.cpu_busy_pct >= kSaturatedCpuBusyPct;
}

double idle_cpus(const ChainInputs& in) {
    const SystemContext& ctx = in.during_span;
    auto cpus = static_cast<double>(in.model.session.cpu_count);
    double idle = ctx.covered_ns > 0 && ctx.runnable_tree_threads > 0
                      ? cpus - ctx.runnable_tree_threads
                      : cpus * (100.0 - ctx.cpu_busy_pct) / 100.0;
    return std::max(0.0, idle);
}

void blame_device(CausalChain& chain, const char* kind, const char* name, const char* effect) {
    chain.actor.kind = kind;
    chain.actor.name = name;
    chain.effects.push_back({.kind = effect,
                             .ns = chain.time_lost_ns,
                             .share = chain.time_lost_share,
                             .text = chain.symptom});
}

Confidence confidence_from(double coverage, double high, double medium) {
    return coverage >= high     ? Confidence::kHigh
           : coverage >= medium ? Confidence::kMedium
                                : Confidence::kLow;
}

std::int64_t category_own_ns(const CallAccounting& accounting, OpCategory category) {
    auto k = static_cast<std::size_t>(category);
    const TimeSplit& split = accounting.by_category[k];
    return std::max<std::int64_t>(
        split.total_ns - split.runnable_waiting_ns() - accounting.cold_excess_by_category[k], 0);
}

std::string slow_op_symptom(const TraceModel& model, const OpAccount& op) {
    const std::string& name = model.ops[static_cast<std::size_t>(op.op_index)].name;
    std::string text = name + ": " + std::to_string(op.slow_calls) + " of " +
                       std::to_string(op.dur.count) + " calls slow (> " +
                       format_duration(op.threshold_ns) + "); p99 " +
                       format_duration(op.dur.p99_ns);
    if (op.dur.p50_ns > 0) {
        text +=
            " = " +
            format_ratio(static_cast<double>(op.dur.p99_ns) / static_cast<double>(op.dur.p50_ns)) +
            " p50 (" + format_duration(op.dur.p50_ns) + ")";
    }
    return text + ", max " + format_duration(op.dur.max_ns);
}

}  // namespace causeway::analysis
