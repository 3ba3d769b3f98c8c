// HOST-BOUND: the thread that drives the GPU computes between CUDA calls while the device waits
// for its next work: its own preprocessing, framework dispatch, Python. Receiving a DataLoader
// batch is the workers' (cause_time.hpp); this is what is left.
#include <algorithm>
#include <memory>

#include "analysis/diagnose/chain_builders.hpp"
#include "analysis/diagnose/own_compute_time.hpp"

namespace causeway::analysis {

std::optional<CausalChain> own_compute_chain(const ChainInputs& in) {
    // The primary threads (by index) with own work, in the order of their keys.
    const CauseTimeline& timeline = in.timeline;
    std::vector<std::size_t> threads;
    std::int64_t on_cpu_ns = 0;
    for (std::size_t q = 0; q < timeline.own_compute.size(); ++q) {
        if (timeline.own_compute[q] && timeline.own_compute_ns[q] > 0) {
            threads.push_back(q);
            add_to(on_cpu_ns, timeline.own_compute_ns[q]);
        }
    }
    std::sort(threads.begin(), threads.end(), [&](std::size_t a, std::size_t b) {
        return *timeline.own_compute[a] < *timeline.own_compute[b];
    });
    const double share = in.share_of_span(on_cpu_ns);
    if (threads.empty() || share < kChainMinShare) {
        return std::nullopt;
    }
    // Work done while the device still had work queued is hidden: not a cause.
    auto cost = source_cost(in, [&](std::size_t q) -> std::unique_ptr<RemovedTimeSource> {
        if (std::find(threads.begin(), threads.end(), q) == threads.end()) {
            return nullptr;
        }
        return std::make_unique<OwnComputeTime>(in.model, in.roles, in.filter,
                                                in.accounting.primary[q].thread_index);
    });
    if (!cost || cost->share < kChainMinShare) {
        return std::nullopt;
    }
    const CauseKey first = *timeline.own_compute[threads.front()];
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
                   .tid = threads.size() == 1 ? thread.tid : 0,
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
