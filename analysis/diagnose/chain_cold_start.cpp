// COLD-START: one-time costs (CUDA context creation, module loading, first allocations) take
// most of a short run, so the steady state the user cares about is hardly in the trace.
#include <algorithm>

#include "analysis/diagnose/chain_builders.hpp"

namespace causeway::analysis {
namespace {

constexpr double kColdStartMinShare = 0.30;
constexpr std::size_t kListedCalls = 3;

}  // namespace

std::optional<CausalChain> cold_start_chain(const ChainInputs& in) {
    const CallAccounting& acc = in.accounting;
    double share = in.share_of_span(acc.cold_excess_ns);
    if (acc.span_ns == 0 || share < kColdStartMinShare) {
        return std::nullopt;
    }
    const CudaCalls& c = in.model.calls;
    std::vector<std::uint32_t> calls = acc.cold_calls;
    std::sort(calls.begin(), calls.end(),
              [&c](std::uint32_t a, std::uint32_t b) { return c.dur_ns[a] > c.dur_ns[b]; });
    CausalChain chain;
    chain.root_cause_class = VerdictClass::kColdStart;
    chain.time_lost_ns = acc.cold_excess_ns;
    chain.time_lost_share = share;
    chain.critical_path = union_cost(in, {&in.timeline.cold_calls});
    // Symptom: how many ops' first calls, their excess (the time lost) against the loop's span.
    chain.facts = {{Fact::kOps, static_cast<std::int64_t>(calls.size())},
                   {Fact::kSpanNs, acc.span_ns}};
    bool first_launch_slow = false;
    for (std::size_t k = 0; k < calls.size() && k < kListedCalls; ++k) {
        const OpInfo& op = in.model.ops[static_cast<std::size_t>(c.op_index[calls[k]])];
        first_launch_slow = first_launch_slow || op.category == OpCategory::kKernel;
        chain.evidence.push_back(
            make_evidence(EvidenceKind::kFirstCall, static_cast<double>(c.dur_ns[calls[k]]),
                          {{Fact::kOp, op.name}, {Fact::kTsNs, c.ts_ns[calls[k]]}}));
    }
    chain.op = in.model.ops[static_cast<std::size_t>(c.op_index[calls.front()])].name;
    chain.recommendations.push_back({RecommendationKind::kSteadyStateWindow});
    if (first_launch_slow) {
        chain.recommendations.push_back({RecommendationKind::kLazyModuleLoading});
    }
    chain.confidence = confidence_from(share, 0.5, 0.3);
    blame_device(chain, CauseKind::kStartUp, "first calls", EffectKind::kFirstCallExcess);
    return chain;
}

}  // namespace causeway::analysis
