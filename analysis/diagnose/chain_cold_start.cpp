// COLD-START: one-time costs (CUDA context creation, module loading, first allocations) take
// most of a short run, so the steady state the user cares about is hardly in the trace.
#include <algorithm>

#include "analysis/diagnose/chain_builders.hpp"
#include "analysis/human_units.hpp"

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
    chain.root_cause_class = kColdStart;
    chain.time_lost_ns = acc.cold_excess_ns;
    chain.time_lost_share = share;
    chain.symptom = "the first call of " + std::to_string(calls.size()) +
                    " ops took far longer than later ones: " + format_duration(acc.cold_excess_ns) +
                    " extra, " + format_percent(share) + " of a " + format_duration(acc.span_ns) +
                    " loop";
    bool first_launch_slow = false;
    for (std::size_t k = 0; k < calls.size() && k < kListedCalls; ++k) {
        const OpInfo& op = in.model.ops[static_cast<std::size_t>(c.op_index[calls[k]])];
        first_launch_slow = first_launch_slow || op.category == OpCategory::kKernel;
        chain.evidence.push_back(
            evidence("first_call_ns:" + op.name, static_cast<double>(c.dur_ns[calls[k]]), "ns",
                     "first " + op.name + " took " + format_duration(c.dur_ns[calls[k]]) + " at " +
                         format_duration(c.ts_ns[calls[k]])));
    }
    chain.op = in.model.ops[static_cast<std::size_t>(c.op_index[calls.front()])].name;
    chain.root_cause =
        "One-time start-up (CUDA context creation, module loading, first "
        "allocations) dominates this short run.";
    chain.recommendations.push_back({RecommendationKind::kSteadyStateWindow});
    if (first_launch_slow) {
        chain.recommendations.push_back({RecommendationKind::kLazyModuleLoading});
    }
    chain.confidence = confidence_from(share, 0.5, 0.3);
    blame_device(chain, "start_up", "first calls", "first_call_excess");
    return chain;
}

}  // namespace causeway::analysis
