#include "analysis/compare/trace_comparison.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "analysis/compare/comparability.hpp"
#include "analysis/diagnose/diagnosis.hpp"
#include "analysis/diagnose/process_roles.hpp"

namespace causeway::analysis {
namespace {

// One recording diagnosed, and its GPU-driving threads (most calls first).
struct Side {
    const TraceModel& model;
    ResolvedFilter filter;
    Diagnosis diagnosis;
    std::vector<int> gpu_threads;
    ComparedRecording recording;
};

Side diagnose_side(const TraceModel& model, const TraceFilter& filter) {
    DiagnosisOptions options{.filter = filter,
                             .breakdown = {.include_threads = false, .max_processes = 1}};
    Side side{model, ResolvedFilter(model, filter), diagnose(model, options), {}, {}};
    for (const auto& gpu : side.diagnosis.gpu_threads) {
        for (std::size_t t = 0; t < model.threads.size(); ++t) {
            const int index = static_cast<int>(t);
            if (model.threads[t].tid == gpu.tid && model.process_of_thread(index).pid == gpu.pid &&
                std::find(side.gpu_threads.begin(), side.gpu_threads.end(), index) ==
                    side.gpu_threads.end()) {
                side.gpu_threads.push_back(index);
                side.recording.gpu_threads.push_back(gpu);
            }
        }
    }
    std::stable_sort(side.gpu_threads.begin(), side.gpu_threads.end(), [&model](int a, int b) {
        return model.calls_by_thread[static_cast<std::size_t>(a)].size() >
               model.calls_by_thread[static_cast<std::size_t>(b)].size();
    });
    side.recording.path = model.path;
    side.recording.program = program_of(model, assign_roles(model).training_process);
    side.recording.verdict = verdict_class_name(side.diagnosis.verdict.verdict_class);
    side.recording.range = side.diagnosis.range;
    side.recording.host = model.session.host;
    side.recording.cpu_count = model.session.cpu_count;
    side.recording.data_loss = side.diagnosis.data_quality.data_loss;
    side.recording.events_lost = side.diagnosis.data_quality.events_lost;
    return side;
}

std::vector<StepMarker> markers_of(const Side& side) {
    if (side.gpu_threads.empty()) {
        return {};
    }
    return step_markers(side.model, side.filter, side.gpu_threads.front());
}

// The step marker both recordings share (by op name), best first in the recording before; the
// throughput of each side counted with it, or in calls/s when they share none.
void measure_throughput(Side& before, Side& after) {
    const auto after_markers = markers_of(after);
    for (const StepMarker& marker : markers_of(before)) {
        const std::string& name = before.model.ops[static_cast<std::size_t>(marker.op_index)].name;
        const auto match =
            std::find_if(after_markers.begin(), after_markers.end(), [&](const StepMarker& m) {
                return after.model.ops[static_cast<std::size_t>(m.op_index)].name == name;
            });
        if (match == after_markers.end()) {
            continue;
        }
        before.recording.loop =
            measure_loop(before.model, before.filter, before.gpu_threads, marker);
        after.recording.loop = measure_loop(after.model, after.filter, after.gpu_threads, *match);
        return;
    }
    before.recording.loop = measure_loop(before.model, before.filter, before.gpu_threads, {});
    after.recording.loop = measure_loop(after.model, after.filter, after.gpu_threads, {});
}

bool median_moved(std::int64_t before_ns, std::int64_t after_ns, const ComparisonOptions& options) {
    const double low = static_cast<double>(std::min(before_ns, after_ns));
    const double high = static_cast<double>(std::max(before_ns, after_ns));
    return high - low >= static_cast<double>(options.min_abs_change_ns) &&
           high >= options.min_op_ratio * low;
}

// Holm across the ops' tests, then each verdict with its floor; throughput on its own.
void judge_changes(TraceComparison& c, const ComparisonOptions& options) {
    std::vector<ShiftTest*> tests;
    for (auto& op : c.ops.common) {
        if (op.shift.rank.tested) {
            tests.push_back(&op.shift);
        }
    }
    std::vector<double> p_values;
    for (const ShiftTest* test : tests) {
        p_values.push_back(test->rank.p_value);
    }
    const std::vector<double> adjusted = holm_adjust(p_values);
    for (std::size_t i = 0; i < tests.size(); ++i) {
        tests[i]->adjusted_p_value = adjusted[i];
    }
    for (auto& op : c.ops.common) {
        op.shift.significant = op.shift.rank.tested && op.shift.adjusted_p_value < options.alpha;
        op.shift.beyond_noise =
            op.shift.significant && median_moved(op.before.p50_ns, op.after.p50_ns, options);
    }
    c.throughput_beyond_noise = c.throughput_test.tested &&
                                c.throughput_test.p_value < options.throughput_alpha &&
                                std::fabs(c.throughput_ratio - 1) >= options.min_throughput_change;
}

// The op whose median moved most (beyond noise); a runtime op before the driver call it makes
// (cudaMemcpyAsync rather than cuMemcpyHtoDAsync).
std::optional<OpLatencyChange> largest_op_shift(const OpChanges& ops) {
    const OpLatencyChange* largest = nullptr;
    double largest_moved = 0;
    for (const auto& op : ops.common) {
        const double moved = std::fabs(static_cast<double>(op.after.p50_ns - op.before.p50_ns));
        const bool replaces_driver_op =
            largest != nullptr && largest->api == "driver" && op.api == "runtime";
        const bool loses_to_runtime_op =
            largest != nullptr && largest->api == "runtime" && op.api == "driver";
        if (op.shift.beyond_noise && !loses_to_runtime_op &&
            (replaces_driver_op || moved > largest_moved)) {
            largest = &op;
            largest_moved = moved;
        }
    }
    return largest != nullptr ? std::optional<OpLatencyChange>(*largest) : std::nullopt;
}

}  // namespace

Result<TraceComparison> compare_traces(const TraceModel& before_model,
                                       const TraceModel& after_model,
                                       const ComparisonOptions& options) {
    TraceComparison c;
    c.ops = op_latency_changes(before_model, options.before, after_model, options.after);
    if (auto common = check_common_ops(before_model, after_model, c.ops); !common) {
        return common.error();
    }
    Side before = diagnose_side(before_model, options.before);
    Side after = diagnose_side(after_model, options.after);
    measure_throughput(before, after);
    c.before = std::move(before.recording);
    c.after = std::move(after.recording);
    c.throughput_ratio = c.before.loop.per_s > 0 ? c.after.loop.per_s / c.before.loop.per_s : 0;
    c.throughput_test = bootstrap_rate_ratio(c.before.loop.interval_ns, c.after.loop.interval_ns,
                                             options.throughput_alpha);
    c.causes = cause_changes(before.diagnosis.chains, after.diagnosis.chains);
    judge_changes(c, options);
    c.largest_op_shift = largest_op_shift(c.ops);
    c.options = options;
    c.differences = comparison_differences(c.before, c.after);
    return c;
}

}  // namespace causeway::analysis
