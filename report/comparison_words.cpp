#include "report/comparison_words.hpp"

#include "analysis/compare/bootstrap_ratio.hpp"
#include "analysis/compare/rank_test.hpp"
#include "report/human_units.hpp"

namespace causeway::report {
namespace {

std::string difference_text(const analysis::TraceComparison& c, analysis::Difference difference) {
    const analysis::ComparedRecording& before = c.before;
    const analysis::ComparedRecording& after = c.after;
    switch (difference) {
        case analysis::Difference::kProgram:
            return "different programs (" + before.program + " before, " + after.program +
                   " after): compared on the CUDA ops they share; a change may be the program's, "
                   "not the fix's";
        case analysis::Difference::kCpuCount:
            return "different CPU counts (" + std::to_string(before.cpu_count) + " before, " +
                   std::to_string(after.cpu_count) + " after): CPU contention depends on them";
        case analysis::Difference::kHost:
            return "different hosts (" + before.host + " before, " + after.host + " after)";
        case analysis::Difference::kBeforeLostEvents:
            return "before recording lost " + std::to_string(before.events_lost) +
                   " events: its numbers may be incomplete";
        case analysis::Difference::kAfterLostEvents:
            return "after recording lost " + std::to_string(after.events_lost) +
                   " events: its numbers may be incomplete";
    }
    return {};
}

}  // namespace

std::string throughput_method_text(const analysis::TraceComparison& c) {
    const analysis::LoopThroughput& before = c.before.loop;
    const analysis::LoopThroughput& after = c.after.loop;
    if (before.unit != analysis::LoopUnit::kSteps) {
        return "no CUDA op recurs at a fixed distance on the GPU-driving threads of both "
               "recordings, so throughput is their CUDA calls per second";
    }
    return "a step is one cycle of the GPU-driving thread's repeating CUDA call sequence, marked "
           "by " +
           before.marker_op + ", which recurs every " + std::to_string(before.calls_per_step) +
           " calls before (" + format_percent(before.regularity) + " of recurrences) and every " +
           std::to_string(after.calls_per_step) + " after (" + format_percent(after.regularity) +
           ")";
}

std::string significance_method_text(const analysis::ComparisonOptions& options) {
    return "ops: Mann-Whitney U rank test over the calls, normal approximation with tie "
           "correction (at most " +
           std::to_string(analysis::kMaxRankTestValues) +
           " calls a side, an even stride), Holm correction across the ops at alpha " +
           format_decimal(options.alpha, 3) + ", and the median must grow or shrink " +
           format_decimal(options.min_op_ratio, 1) + "x and move by " +
           format_duration(options.min_abs_change_ns) +
           " (two recordings of one workload differ that much)" +
           "; throughput: bootstrap of the ratio of mean intervals (" +
           std::to_string(analysis::kBootstrapResamples) + " resamples, fixed seed) at alpha " +
           format_decimal(options.throughput_alpha, 2) + ", and it must change by " +
           format_percent(options.min_throughput_change);
}

std::vector<std::string> difference_texts(const analysis::TraceComparison& c) {
    std::vector<std::string> texts;
    for (analysis::Difference difference : c.differences) {
        texts.push_back(difference_text(c, difference));
    }
    return texts;
}

std::string gpu_thread_text(const analysis::GpuThread& thread) {
    return thread.comm + " (tid " + std::to_string(thread.tid) + ", pid " +
           std::to_string(thread.pid) + ")";
}

}  // namespace causeway::report
