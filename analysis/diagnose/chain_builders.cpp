#include "analysis/diagnose/chain_builders.hpp"

#include <algorithm>

namespace causeway::analysis {

bool cpus_saturated(const ChainInputs& in) {
    const SystemContext& ctx = in.during_span;
    if (ctx.covered_ns > 0 && ctx.runnable_tree_threads > 0) {
        return ctx.runnable_tree_threads >= static_cast<double>(in.job_cpus) - 0.5 ||
               ctx.tree_preempted_share >= kSaturatedPreemptedShare;
    }
    return ctx.snapshots > 0 && ctx.cpu_busy_pct >= kSaturatedCpuBusyPct;
}

double idle_cpus(const ChainInputs& in) {
    const SystemContext& ctx = in.during_span;
    auto cpus = static_cast<double>(in.job_cpus);
    double idle = ctx.covered_ns > 0 && ctx.runnable_tree_threads > 0
                      ? cpus - ctx.runnable_tree_threads
                      : cpus * (100.0 - ctx.cpu_busy_pct) / 100.0;
    return std::max(0.0, idle);
}

void blame_device(CausalChain& chain, CauseKind kind, const char* name, EffectKind effect) {
    chain.actor.kind = kind;
    chain.actor.name = name;
    chain.effects.push_back(
        {.kind = effect, .ns = chain.time_lost_ns, .share = chain.time_lost_share});
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

FactParams slow_op_facts(const OpAccount& op) {
    return {{Fact::kSlowCalls, op.slow_calls},     {Fact::kCalls, op.dur.count},
            {Fact::kThresholdNs, op.threshold_ns}, {Fact::kP99Ns, op.dur.p99_ns},
            {Fact::kP50Ns, op.dur.p50_ns},         {Fact::kMaxNs, op.dur.max_ns}};
}

}  // namespace causeway::analysis
