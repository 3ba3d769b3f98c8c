#include "analysis/measure/loop_steps.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>

namespace causeway::analysis {
namespace {

bool is_sync(const TraceModel& model, int op_index) {
    return model.ops[static_cast<std::size_t>(op_index)].category == OpCategory::kSync;
}

}  // namespace

const char* loop_unit_name(LoopUnit unit) {
    return unit == LoopUnit::kSteps ? "steps" : "calls";
}

std::vector<StepMarker> step_markers(const TraceModel& model, const ResolvedFilter& filter,
                                     int thread_index) {
    return step_markers(model, AccountedCalls(model, filter, thread_index));
}

std::vector<StepMarker> step_markers(const TraceModel& model, const AccountedCalls& calls) {
    // Per op: where it was last seen (position in `calls`), its first position, and how many
    // recurrences were each distance apart.
    struct Seen {
        std::size_t first = 0;
        std::size_t last = 0;
        std::int64_t occurrences = 0;
        std::map<std::int64_t, std::int64_t> distances;
    };
    std::map<int, Seen> seen;
    std::size_t position = 0;
    for (std::uint32_t call : calls) {
        Seen& op = seen[model.calls.op_index[call]];
        if (op.occurrences > 0) {
            ++op.distances[static_cast<std::int64_t>(position - op.last)];
        } else {
            op.first = position;
        }
        op.last = position++;
        ++op.occurrences;
    }
    struct Ranked {
        StepMarker marker;
        std::size_t first = 0;
    };
    std::vector<Ranked> ranked;
    for (const auto& [op_index, op] : seen) {
        if (op.occurrences < kMinStepsForMarker) {
            continue;
        }
        const auto mode =
            std::max_element(op.distances.begin(), op.distances.end(),
                             [](const auto& a, const auto& b) { return a.second < b.second; });
        const double regularity =
            static_cast<double>(mode->second) / static_cast<double>(op.occurrences - 1);
        if (regularity >= kMinStepRegularity) {
            ranked.push_back({{op_index, mode->first, regularity, op.occurrences}, op.first});
        }
    }
    std::sort(ranked.begin(), ranked.end(), [&](const Ranked& a, const Ranked& b) {
        if (a.marker.calls_per_step != b.marker.calls_per_step) {
            return a.marker.calls_per_step > b.marker.calls_per_step;
        }
        const bool a_sync = is_sync(model, a.marker.op_index);
        if (a_sync != is_sync(model, b.marker.op_index)) {
            return a_sync;
        }
        return a.first < b.first;
    });
    std::vector<StepMarker> markers;
    for (const auto& r : ranked) {
        markers.push_back(r.marker);
    }
    return markers;
}

LoopThroughput measure_loop(const TraceModel& model, const ResolvedFilter& filter,
                            const std::vector<int>& threads, const StepMarker& marker) {
    LoopThroughput loop;
    if (marker.op_index >= 0 && !threads.empty()) {
        loop.unit = LoopUnit::kSteps;
        loop.marker_op = model.ops[static_cast<std::size_t>(marker.op_index)].name;
        loop.calls_per_step = marker.calls_per_step;
        loop.regularity = marker.regularity;
        std::int64_t previous_ns = -1;
        std::int64_t first_ns = 0;
        for (std::uint32_t call : AccountedCalls(model, filter, threads.front())) {
            if (model.calls.op_index[call] != marker.op_index) {
                continue;
            }
            const std::int64_t ts_ns = model.calls.ts_ns[call];
            if (previous_ns >= 0) {
                loop.interval_ns.push_back(ts_ns - previous_ns);
                loop.span_ns = ts_ns - first_ns;
            } else {
                first_ns = ts_ns;
            }
            previous_ns = ts_ns;
        }
    } else {
        std::int64_t start_ns = std::numeric_limits<std::int64_t>::max();
        std::int64_t end_ns = std::numeric_limits<std::int64_t>::min();
        for (int thread : threads) {
            std::optional<std::uint32_t> previous;
            for (std::uint32_t call : AccountedCalls(model, filter, thread)) {
                if (previous) {
                    loop.interval_ns.push_back(model.calls.ts_ns[call] -
                                               model.calls.ts_ns[*previous]);
                } else {
                    start_ns = std::min(start_ns, model.calls.ts_ns[call]);
                }
                previous = call;
                ++loop.count;
            }
            if (previous) {
                end_ns = std::max(end_ns, model.calls.end_ns(*previous));
            }
        }
        loop.span_ns = end_ns > start_ns ? end_ns - start_ns : 0;
    }
    if (loop.unit == LoopUnit::kSteps) {
        loop.count = static_cast<std::int64_t>(loop.interval_ns.size());
    }
    loop.per_s = loop.span_ns > 0
                     ? static_cast<double>(loop.count) * 1e9 / static_cast<double>(loop.span_ns)
                     : 0.0;
    return loop;
}

}  // namespace causeway::analysis
