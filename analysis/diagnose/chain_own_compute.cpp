// HOST-BOUND: the thread that drives the GPU computes between CUDA calls while the device waits
// for its next work: its own preprocessing, framework dispatch, Python. Receiving a DataLoader
// batch is the workers' (cause_time.hpp); this is what is left.
#include <algorithm>

#include "analysis/diagnose/chain_builders.hpp"

namespace causeway::analysis {

std::optional<CausalChain> own_compute_chain(const ChainInputs& in) {
    std::vector<const PerThreadTime*> parts;
    std::int64_t on_cpu_ns = 0;
    CauseKey first;
    for (const auto& [key, per_thread] : in.timeline.by_cause) {
        if (key.kind != CauseKind::kOwnCompute) {
            continue;
        }
        if (parts.empty()) {
            first = key;
        }
        parts.push_back(&per_thread);
        for (const auto& list : per_thread) {
            for (const WeightedInterval& i : list) {
                add_to(on_cpu_ns, static_cast<std::int64_t>(
                                      i.weight * static_cast<double>(i.end_ns - i.start_ns)));
            }
        }
    }
    const double share = in.share_of_span(on_cpu_ns);
    if (parts.empty() || share < kChainMinShare) {
        return std::nullopt;
    }
    // Work done while the device still had work queued is hidden: not a cause.
    auto cost = union_cost(in, parts);
    if (!cost || cost->share < kChainMinShare) {
        return std::nullopt;
    }
    CausalChain chain;
    chain.root_cause_class = VerdictClass::kHostBound;
    chain.time_lost_ns = on_cpu_ns;
    chain.time_lost_share = share;
    chain.critical_path = cost;
    const ThreadInfo& thread = in.model.threads[static_cast<std::size_t>(first.thread_index)];
    const ProcessInfo& process = in.model.process_of_thread(first.thread_index);
    chain.actor = {.kind = CauseKind::kOwnCompute,
                   .name = thread.comm,
                   .pid = process.pid,
                   .tid = parts.size() == 1 ? thread.tid : 0,
                   .pids = {process.pid},
                   .in_tree = true,
                   .container = process.container};
    chain.effects.push_back(
        {.kind = EffectKind::kOnCpu, .ns = on_cpu_ns, .share = share, .count = 0});
    chain.evidence.push_back(make_evidence(EvidenceKind::kLoopOncpuBetweenCallsShare, share));
    chain.recommendations = {{RecommendationKind::kMoveHostWork},
                             {RecommendationKind::kCheaperHostWork}};
    chain.confidence = confidence_from(cost->share, 0.3, kChainMinShare);
    return chain;
}

}  // namespace causeway::analysis
