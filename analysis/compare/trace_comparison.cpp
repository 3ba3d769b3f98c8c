#include "analysis/compare/trace_comparison.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "analysis/compare/comparability.hpp"
#include "analysis/compare/comparison_headline.hpp"
#include "analysis/diagnose/diagnosis.hpp"
#include "analysis/diagnose/process_roles.hpp"
#include "analysis/human_units.hpp"

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
                side.recording.gpu_threads.push_back(gpu.comm + " (tid " + std::to_string(gpu.tid) +
                                                     ", pid " + std::to_string(gpu.pid) + ")");
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
std::string measure_throughput(Side& before, Side& after) {
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
        const auto percent = [](double share) { return format_percent(share); };
        return "a step is one cycle of the GPU-driving thread's repeating CUDA call sequence, "
               "marked by " +
               name + ", which recurs every " + std::to_string(marker.calls_per_step) +
               " calls before (" + percent(marker.regularity) + " of recurrences) and every " +
               std::to_string(match->calls_per_step) + " after (" + percent(match->regularity) +
               ")";
    }
    before.recording.loop = measure_loop(before.model, before.filter, before.gpu_threads, {});
    after.recording.loop = measure_loop(after.model, after.filter, after.gpu_threads, {});
    return "no CUDA op recurs at a fixed distance on the GPU-driving threads of both recordings, "
           "so throughput is their CUDA calls per second";
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

std::string significance_method(const ComparisonOptions& options) {
    return "ops: Mann-Whitney U rank test over the calls, normal approximation with tie "
           "correction (at most " +
           std::to_string(kMaxRankTestValues) +
           " calls a side, an even stride), Holm correction across the ops at alpha " +
           format_decimal(options.alpha, 3) + ", and the median must grow or shrink " +
           format_decimal(options.min_op_ratio, 1) + "x and move by " +
           format_duration(options.min_abs_change_ns) +
           " (two recordings of one workload differ that much)" +
           "; throughput: bootstrap of the ratio of mean intervals (" +
           std::to_string(kBootstrapResamples) + " resamples, fixed seed) at alpha " +
           format_decimal(options.throughput_alpha, 2) + ", and it must change by " +
           format_percent(options.min_throughput_change);
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
    c.throughput_method = measure_throughput(before, after);
    c.before = std::move(before.recording);
    c.after = std::move(after.recording);
    c.throughput_ratio = c.before.loop.per_s > 0 ? c.after.loop.per_s / c.before.loop.per_s : 0;
    c.throughput_test = bootstrap_rate_ratio(c.before.loop.interval_ns, c.after.loop.interval_ns,
                                             options.throughput_alpha);
    c.causes = cause_changes(before.diagnosis.chains, after.diagnosis.chains);
    judge_changes(c, options);
    c.significance_method = significance_method(options);
    c.warnings = comparison_warnings(before_model, c.before.program, after_model, c.after.program);
    c.headline = comparison_headline(c);
    return c;
}

}  // namespace causeway::analysis
