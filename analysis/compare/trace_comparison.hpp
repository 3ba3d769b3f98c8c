#pragma once
// `causeway compare`: two recordings of one job, before and after a change. The GPU loop's
// throughput, the causes that went away or appeared and the time each cost, every common op's
// latency percentiles, and for each change whether it is beyond noise.
//
// Beyond noise, per op: a Mann-Whitney U test (normal approximation, tie-corrected) over the
// calls, Holm-corrected across the ops at level `alpha`, AND an effect at least the floor: the
// median grew or shrank by `min_op_ratio` and moved by `min_abs_change_ns`. The test treats calls
// as independent, but the calls of one run share its conditions (memory placement, caches, CPU
// frequency, neighbours): two recordings of the same workload here differed by up to 1.4x in an
// op's median (gpu_bound, cuMemcpyHtoDAsync 82 -> 57 us) while the rank test called that certain.
// The floor is that between-run noise. Throughput, the comparison's primary question, is tested
// on its own: a bootstrap of the ratio of mean step intervals (bootstrap_ratio.hpp) at level
// `throughput_alpha`, and a change of at least `min_throughput_change`.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/compare/bootstrap_ratio.hpp"
#include "analysis/compare/cause_change.hpp"
#include "analysis/compare/op_latency_change.hpp"
#include "analysis/diagnose/diagnosis.hpp"
#include "analysis/measure/loop_steps.hpp"
#include "analysis/model/trace_filter.hpp"
#include "analysis/model/trace_model.hpp"
#include "base/result.hpp"

namespace causeway::analysis {

struct ComparisonOptions {
    TraceFilter before{};
    TraceFilter after{};
    double alpha = 0.01;  // ops: family-wise level (Holm)
    // Throughput: one test, the comparison's primary question, at the conventional level.
    double throughput_alpha = 0.05;
    double min_op_ratio = 1.5;               // of the median, up or down
    std::int64_t min_abs_change_ns = 5'000;  // of the median (a uprobe's jitter is ~1-2 us)
    double min_throughput_change = 0.10;     // relative
};

// One recording's side of the comparison.
struct ComparedRecording {
    std::string path;
    std::string program;  // comparability.hpp program_of
    std::string verdict;  // its diagnosis's verdict name
    TimeWindow range;
    std::vector<GpuThread> gpu_threads;
    LoopThroughput loop;
    std::string host;
    std::int64_t cpu_count = 0;
    bool data_loss = false;  // the recording lost events (data_quality.hpp)
    std::int64_t events_lost = 0;
};

// What differs between the recordings besides the change under test (comparability.hpp).
enum class Difference { kProgram, kCpuCount, kHost, kBeforeLostEvents, kAfterLostEvents };

struct TraceComparison {
    ComparedRecording before;
    ComparedRecording after;
    double throughput_ratio = 0;    // after / before, per second; 0 when before is 0
    RateBootstrap throughput_test;  // on the step (or call-to-call) intervals
    bool throughput_beyond_noise = false;
    std::vector<CauseChange> causes;
    OpChanges ops;
    // The common op whose median moved most beyond noise, a runtime op before the driver op it
    // calls (the cause of a change, not its echo); absent when none moved beyond noise.
    std::optional<OpLatencyChange> largest_op_shift;
    ComparisonOptions options;  // the levels and floors the changes were judged by
    std::vector<Difference> differences;
};

Result<TraceComparison> compare_traces(const TraceModel& before, const TraceModel& after,
                                       const ComparisonOptions& options);

}  // namespace causeway::analysis
