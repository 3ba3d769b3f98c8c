// The critical-path cost of a chain: its time on the GPU-driving threads, replayed against the
// device's queue (analysis/measure/critical_path.hpp).
#include <algorithm>
#include <stdexcept>
#include <string>

#include "analysis/diagnose/chain_builders.hpp"

namespace causeway::analysis {
namespace {

// A chain's cost from a prediction over the queues' loops; absent without a drain of the device's
// queue (no loop).
std::optional<CriticalPathCost> cost_of(const SpeedupPrediction& p, bool device_twice_as_fast) {
    if (p.loop_ns <= 0) {
        return std::nullopt;
    }
    return CriticalPathCost{.cost_ns = p.saved_ns,
                            .share = p.saved_share(),
                            .loop_ns = p.loop_ns,
                            .speedup = p.speedup,
                            .speedup_low = p.speedup_low,
                            .speedup_high = p.speedup_high,
                            .device_twice_as_fast = device_twice_as_fast,
                            .advised_fix = std::nullopt,
                            .upper_bound = false};
}

}  // namespace

std::optional<CriticalPathCost> union_cost(const ChainInputs& in,
                                           const std::vector<const PerThreadTime*>& parts) {
    if (parts.size() == 1) {  // already sorted and disjoint (cause_time.hpp)
        return cost_of(in.critical_path.predict(*parts.front(), 1.0), false);
    }
    HostTimeRemoval removal;
    removal.per_queue.resize(in.queues.size());
    for (const PerThreadTime* per_thread : parts) {
        for (std::size_t q = 0; q < per_thread->size() && q < removal.per_queue.size(); ++q) {
            for (const WeightedInterval& i : (*per_thread)[q]) {
                removal.per_queue[q].push_back(i);
            }
        }
    }
    for (auto& list : removal.per_queue) {
        normalise_intervals(list);
    }
    return critical_path_cost(in, removal);
}

std::optional<CriticalPathCost> critical_path_cost(const ChainInputs& in,
                                                   const HostTimeRemoval& removal) {
    return cost_of(in.critical_path.predict(removal), removal.device_scale < 1.0);
}

std::optional<CriticalPathCost> source_cost(const ChainInputs& in,
                                            const RemovedTimeSources& sources) {
    return cost_of(in.critical_path.predict(sources), false);
}

AdvisedFixPrediction advised_fix(RecommendationKind fix, const CriticalPathCost& fix_cost,
                                 double most) {
    return AdvisedFixPrediction{.fix = fix,
                                .speedup = std::min(fix_cost.speedup, most),
                                .speedup_low = std::min(fix_cost.speedup_low, most),
                                .speedup_high = std::min(fix_cost.speedup_high, most)};
}

std::optional<CriticalPathCost> in_call_cost(const ChainInputs& in,
                                             std::initializer_list<OpCategory> categories) {
    std::vector<const PerThreadTime*> parts;
    for (OpCategory category : categories) {
        if (!costed_category(category)) {
            throw std::logic_error(std::string("the calls' own time of category ") +
                                   category_name(category) +
                                   " is not kept: add it to costed_category (cause_time.hpp)");
        }
        parts.push_back(&in.timeline.in_calls[static_cast<std::size_t>(category)]);
    }
    return union_cost(in, parts);
}

std::optional<CriticalPathCost> cause_cost(const ChainInputs& in, const Cause& cause) {
    std::vector<const PerThreadTime*> parts;
    std::vector<CauseKey> keys = cause.members;
    keys.push_back(cause.key);
    for (const CauseKey& key : keys) {
        auto found = in.timeline.by_cause.find(key);
        if (found != in.timeline.by_cause.end()) {
            parts.push_back(&found->second);
        }
    }
    return union_cost(in, parts);
}

}  // namespace causeway::analysis
