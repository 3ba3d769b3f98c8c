// CPU-THROTTLED: the thread that drives the GPU was runnable while its CPU went idle. Its group
// had used its CPU quota for the period (CFS bandwidth control: a container's CPU limit, cpu.max
// or cpu.cfs_quota_us) and waited for the next one. Nothing took the CPU, so no competitor is
// named; the advice is the limit's.
#include "analysis/diagnose/chain_builders.hpp"

namespace causeway::analysis {

void describe_cpu_quota(const ChainInputs& in, const Cause& /*cause*/, CausalChain& chain) {
    add_lost_cpu_symptom(in, chain);
    add_cpu_context_evidence(in, chain);
    chain.recommendations.push_back({RecommendationKind::kRaiseCpuLimit});
    chain.confidence = lost_cpu_confidence(in, chain.time_lost_share);
}

}  // namespace causeway::analysis
