#pragma once
// The GPU loop's throughput: training steps per second where a step shows in the call pattern,
// otherwise CUDA calls per second. A training loop makes the same CUDA calls in the same order
// every step (copy the batch, launch the kernels, synchronise), so the thread that drives the
// GPU calls one op of that cycle exactly once per step, a fixed number of calls apart. That op
// marks the steps; its period is the cycle's length.

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/model/accounted_calls.hpp"
#include "analysis/model/trace_filter.hpp"
#include "analysis/model/trace_model.hpp"

namespace causeway::analysis {

// An op must recur at least this often to mark steps.
inline constexpr std::int64_t kMinStepsForMarker = 10;
// ... and at least this share of its recurrences must be the same number of calls apart.
inline constexpr double kMinStepRegularity = 0.9;

// An op that recurs at a fixed distance in the thread's accounted calls.
struct StepMarker {
    int op_index = -1;
    std::int64_t calls_per_step = 0;  // the distance: the cycle's length in calls
    double regularity = 0;            // share of recurrences exactly calls_per_step apart
    std::int64_t occurrences = 0;
};

// The thread's step markers, best first: the longest cycle (an op called once per step rather
// than many times), then synchronisations (the step's natural end), then the op seen first.
// The thread's accounted calls (runtime calls and driver calls made outside them) in `filter`.
std::vector<StepMarker> step_markers(const TraceModel& model, const ResolvedFilter& filter,
                                     int thread_index);
// The same, of a thread's accounted calls.
std::vector<StepMarker> step_markers(const TraceModel& model, const AccountedCalls& calls);

enum class LoopUnit { kSteps, kCalls };
const char* loop_unit_name(LoopUnit unit);  // 'steps', 'calls'

struct LoopThroughput {
    LoopUnit unit = LoopUnit::kCalls;
    std::string marker_op;            // kSteps: the op that marks a step
    std::int64_t calls_per_step = 0;  // kSteps: the cycle's length in calls
    double regularity = 0;     // kSteps: share of the marker's recurrences calls_per_step apart
    std::int64_t count = 0;    // steps (marker intervals) or calls counted
    std::int64_t span_ns = 0;  // the time they cover
    double per_s = 0;          // count / span; 0 when the span is empty
    // The samples the change is tested on: each step's duration (marker to marker), or each
    // interval between consecutive accounted calls.
    std::vector<std::int64_t> interval_ns;
};

// Steps per second of `thread_index` marked by `marker.op_index`, or with no marker
// (op_index < 0) the accounted calls per second of `threads` over their common span.
LoopThroughput measure_loop(const TraceModel& model, const ResolvedFilter& filter,
                            const std::vector<int>& threads, const StepMarker& marker);

}  // namespace causeway::analysis
