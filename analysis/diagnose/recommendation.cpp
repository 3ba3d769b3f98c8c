#include "analysis/diagnose/recommendation.hpp"

#include <algorithm>

namespace causeway::analysis {

const char* recommendation_kind_name(RecommendationKind kind) {
    switch (kind) {
        case RecommendationKind::kIndexInMemory:
            return "index_in_memory";
        case RecommendationKind::kFewerWorkers:
            return "fewer_workers";
        case RecommendationKind::kWorkersYieldCpu:
            return "workers_yield_cpu";
        case RecommendationKind::kPersistentWorkers:
            return "persistent_workers";
        case RecommendationKind::kStopCompetitors:
            return "stop_competitors";
        case RecommendationKind::kLimitIntraOpThreads:
            return "limit_intra_op_threads";
        case RecommendationKind::kOwnCore:
            return "own_core";
        case RecommendationKind::kMoreWorkers:
            return "more_workers";
        case RecommendationKind::kWorkersOutnumberCpus:
            return "workers_outnumber_cpus";
        case RecommendationKind::kBackgroundLoading:
            return "background_loading";
        case RecommendationKind::kCheaperLoading:
            return "cheaper_loading";
        case RecommendationKind::kDataInMemory:
            return "data_in_memory";
        case RecommendationKind::kRemoveSleep:
            return "remove_sleep";
        case RecommendationKind::kPrefetchNetworkInput:
            return "prefetch_network_input";
        case RecommendationKind::kFasterProducer:
            return "faster_producer";
        case RecommendationKind::kFasterOutsideProcess:
            return "faster_outside_process";
        case RecommendationKind::kShorterCriticalSection:
            return "shorter_critical_section";
        case RecommendationKind::kAvoidGil:
            return "avoid_gil";
        case RecommendationKind::kFasterDeviceWork:
            return "faster_device_work";
        case RecommendationKind::kReuseDeviceBuffers:
            return "reuse_device_buffers";
        case RecommendationKind::kReusePinnedBuffers:
            return "reuse_pinned_buffers";
        case RecommendationKind::kPinnedCopies:
            return "pinned_copies";
        case RecommendationKind::kBatchSmallCopies:
            return "batch_small_copies";
        case RecommendationKind::kFewerBytes:
            return "fewer_bytes";
        case RecommendationKind::kSteadyStateWindow:
            return "steady_state_window";
        case RecommendationKind::kLazyModuleLoading:
            return "lazy_module_loading";
        case RecommendationKind::kMoveHostWork:
            return "move_host_work";
        case RecommendationKind::kCheaperHostWork:
            return "cheaper_host_work";
        case RecommendationKind::kRaiseCpuLimit:
            return "raise_cpu_limit";
        case RecommendationKind::kGilWorkToProcess:
            return "gil_work_to_process";
        case RecommendationKind::kReleaseGil:
            return "release_gil";
        case RecommendationKind::kShorterSwitchInterval:
            return "shorter_switch_interval";
        case RecommendationKind::kWiderCpuset:
            return "wider_cpuset";
        case RecommendationKind::kLateRankFirst:
            return "late_rank_first";
        case RecommendationKind::kBalanceRanks:
            return "balance_ranks";
    }
    return "unknown";
}

const Recommendation* find_recommendation(const std::vector<Recommendation>& recommendations,
                                          RecommendationKind kind) {
    auto it = std::find_if(recommendations.begin(), recommendations.end(),
                           [kind](const Recommendation& r) { return r.kind == kind; });
    return it == recommendations.end() ? nullptr : &*it;
}

}  // namespace causeway::analysis
