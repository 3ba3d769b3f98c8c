// Comparing two recordings: the rank test, Holm's correction, the bootstrap of a rate, step
// detection and the whole comparison, on hand-built traces whose answers are known exactly; and
// the headline and warnings the report layer words from those facts.
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>

#include "analysis/compare/bootstrap_ratio.hpp"
#include "analysis/compare/rank_test.hpp"
#include "analysis/compare/trace_comparison.hpp"
#include "analysis/measure/loop_steps.hpp"
#include "report/comparison_headline.hpp"
#include "report/comparison_words.hpp"
#include "tests/analysis/fixture_builder.hpp"

using namespace causeway::analysis;
using namespace causeway::testing;

namespace {

std::vector<std::int64_t> range_of(std::int64_t first, std::int64_t last) {
    std::vector<std::int64_t> values(static_cast<std::size_t>(last - first + 1));
    std::iota(values.begin(), values.end(), first);
    return values;
}

// A training loop on pid 100: each step copies the batch, launches three kernels and
// synchronises; the next step starts `step_ns` after the last. Launches take `launch_us` plus a
// deterministic spread of 0-10 us. With `hog`, a process outside the tree holds the thread's
// CPU for 3 ms between the copy and the launches of every step.
struct Loop {
    std::int64_t steps = 200;
    std::int64_t step_ns = 10 * kMs;
    std::int64_t launch_us = 10;
    bool hog = false;
    std::string program = "python";  // the training process's name (no command line recorded)
};

struct Recording {
    FixtureBuilder fixture{2};
    TraceModel model;

    explicit Recording(const Loop& loop) : model(build(loop)) {}

    TraceModel build(const Loop& loop) {
        auto process = fixture.process(100, loop.program);
        auto thread = fixture.thread(process, 100, loop.program);
        std::int64_t hog_thread = 0;
        if (loop.hog) {
            auto outside = fixture.process(900, "noisy_hog", std::nullopt, false);
            hog_thread = fixture.thread(outside, 900, "noisy_hog");
        }
        for (std::int64_t i = 0; i < loop.steps; ++i) {
            const std::int64_t start = i * loop.step_ns;
            fixture.call(thread, op::kMemcpyAsync, start, 30 * kUs, 1 << 20, 1);
            std::int64_t at = start + 100 * kUs;
            if (loop.hog) {
                fixture.preempted(thread, at, 3 * kMs, hog_thread);
                at += 3 * kMs;
            }
            for (std::int64_t k = 0; k < 3; ++k) {
                const std::int64_t launch_ns = (loop.launch_us + (i * 3 + k) * 7 % 11) * kUs;
                fixture.call(thread, op::kLaunchKernel, at, launch_ns);
                at += 100 * kUs;
            }
            fixture.call(thread, op::kStreamSynchronize, at, 1 * kMs);
            // Scheduling recorded: the rest of the step is the thread's own work.
            fixture.preempted(thread, start + loop.step_ns - 200 * kUs, 10 * kUs, std::nullopt);
        }
        fixture.snapshots(loop.steps * loop.step_ns, 50, 1);
        return fixture.load(loop.steps * loop.step_ns);
    }
};

const OpLatencyChange& op_change(const TraceComparison& c, const std::string& name) {
    auto found = std::find_if(c.ops.common.begin(), c.ops.common.end(),
                              [&](const OpLatencyChange& op) { return op.op == name; });
    REQUIRE(found != c.ops.common.end());
    return *found;
}

bool any_op_changed(const TraceComparison& c) {
    return std::any_of(c.ops.common.begin(), c.ops.common.end(),
                       [](const OpLatencyChange& op) { return op.shift.beyond_noise; });
}

}  // namespace

TEST_CASE("Mann-Whitney U: separated samples, the normal approximation's exact value",
          "[analysis][compare]") {
    // n1 = n2 = 10, U = 100, mean 50, variance 10*10/12*21 = 175; continuity-corrected
    // z = 49.5 / sqrt(175) = 3.7418, two-sided p = erfc(z / sqrt 2) = 1.8267e-4.
    const RankTest test = mann_whitney(range_of(1, 10), range_of(11, 20));
    REQUIRE(test.tested);
    CHECK(test.z == Approx(3.7418483).epsilon(1e-6));
    CHECK(test.p_value == Approx(1.8267179e-4).epsilon(1e-5));
    CHECK(test.after_larger_probability == 1.0);
    const RankTest reversed = mann_whitney(range_of(11, 20), range_of(1, 10));
    CHECK(reversed.z == Approx(-3.7418483).epsilon(1e-6));
    CHECK(reversed.after_larger_probability == 0.0);
}

TEST_CASE("Mann-Whitney U: equal samples, all ties and too few values are no evidence",
          "[analysis][compare]") {
    const RankTest same = mann_whitney(range_of(1, 50), range_of(1, 50));
    CHECK(same.tested);
    CHECK(same.p_value == 1.0);
    CHECK(same.after_larger_probability == 0.5);
    const RankTest ties =
        mann_whitney(std::vector<std::int64_t>(20, 7), std::vector<std::int64_t>(30, 7));
    CHECK(ties.tested);
    CHECK(ties.p_value == 1.0);
    const RankTest few = mann_whitney(range_of(1, 7), range_of(100, 200));
    CHECK_FALSE(few.tested);
    CHECK(few.p_value == 1.0);
}

TEST_CASE("Mann-Whitney U ranks at most kMaxRankTestValues a side", "[analysis][compare]") {
    const RankTest test = mann_whitney(range_of(1, 250'000), range_of(1, 250'000));
    CHECK(test.before_values <= kMaxRankTestValues);
    CHECK(test.after_values <= kMaxRankTestValues);
    CHECK(test.p_value == Approx(1.0));
}

TEST_CASE("Holm's step-down adjustment", "[analysis][compare]") {
    // Sorted: 0.005 x4 = 0.02, 0.01 x3 = 0.03, 0.03 x2 = 0.06, 0.04 x1 = 0.04 -> kept at 0.06.
    const std::vector<double> adjusted = holm_adjust({0.01, 0.04, 0.03, 0.005});
    REQUIRE(adjusted.size() == 4);
    CHECK(adjusted[0] == Approx(0.03));
    CHECK(adjusted[1] == Approx(0.06));
    CHECK(adjusted[2] == Approx(0.06));
    CHECK(adjusted[3] == Approx(0.02));
    CHECK(holm_adjust({0.5, 0.9})[1] == 1.0);
    CHECK(holm_adjust({}).empty());
}

TEST_CASE("bootstrap of a rate: same intervals are no change, halved intervals are 2x",
          "[analysis][compare]") {
    std::vector<std::int64_t> intervals;
    for (std::int64_t i = 0; i < 100; ++i) {
        intervals.push_back((10 + i % 7) * kMs);
    }
    const RateBootstrap same = bootstrap_rate_ratio(intervals, intervals, 0.05);
    REQUIRE(same.tested);
    CHECK(same.rate_ratio == Approx(1.0));
    CHECK(same.p_value > 0.5);
    CHECK(same.ci_low < 1.0);
    CHECK(same.ci_high > 1.0);
    std::vector<std::int64_t> halved = intervals;
    for (auto& v : halved) {
        v /= 2;
    }
    const RateBootstrap faster = bootstrap_rate_ratio(intervals, halved, 0.05);
    CHECK(faster.rate_ratio == Approx(2.0));
    CHECK(faster.p_value < 0.001);
    CHECK(faster.ci_low > 1.8);
    // Deterministic: the same input gives the same interval.
    CHECK(bootstrap_rate_ratio(intervals, halved, 0.05).ci_low == faster.ci_low);
    CHECK_FALSE(bootstrap_rate_ratio({1, 2, 3}, intervals, 0.05).tested);
}

TEST_CASE("a step is found from the repeating call sequence", "[analysis][compare]") {
    Recording run(Loop{});
    const ResolvedFilter all(run.model, {});
    const int thread = 0;
    const auto markers = step_markers(run.model, all, thread);
    REQUIRE_FALSE(markers.empty());
    const OpInfo& marker = run.model.ops[static_cast<std::size_t>(markers[0].op_index)];
    // Copy, launch, launch, launch, sync: the copy and the sync recur every 5 calls; the sync
    // wins as the step's natural end.
    CHECK(marker.name == "cudaStreamSynchronize");
    CHECK(markers[0].calls_per_step == 5);
    CHECK(markers[0].regularity == 1.0);
    const LoopThroughput loop = measure_loop(run.model, all, {thread}, markers[0]);
    CHECK(loop.unit == LoopUnit::kSteps);
    CHECK(loop.count == 199);
    CHECK(loop.per_s == Approx(100.0));
    const LoopThroughput calls = measure_loop(run.model, all, {thread}, StepMarker{});
    CHECK(calls.unit == LoopUnit::kCalls);
    CHECK(calls.count == 1000);
}

TEST_CASE("a recording compared with itself reports no change", "[analysis][compare]") {
    Recording run(Loop{.hog = true});
    auto c = compare_traces(run.model, run.model, {});
    REQUIRE(c);
    CHECK(c->throughput_ratio == 1.0);
    CHECK_FALSE(c->throughput_beyond_noise);
    CHECK_FALSE(any_op_changed(*c));
    for (const auto& cause : c->causes) {
        CHECK(cause.status == CauseStatus::kPersists);
        CHECK(cause.before_ns == cause.after_ns);
    }
    CHECK_FALSE(c->largest_op_shift);
    CHECK(c->differences.empty());
    CHECK(causeway::report::comparison_headline(*c) ==
          "steps/s unchanged within noise (+0% steps/s); nothing new");
}

TEST_CASE("two recordings of one workload differ only by their spread: no change",
          "[analysis][compare]") {
    // The same loop; the second's launches are spread differently (another phase of the same
    // 0-10 us jitter) and it ran 20 steps longer.
    Recording first(Loop{});
    Recording second(Loop{.steps = 220, .launch_us = 11});
    auto c = compare_traces(first.model, second.model, {});
    REQUIRE(c);
    CHECK_FALSE(c->throughput_beyond_noise);
    CHECK_FALSE(any_op_changed(*c));
}

TEST_CASE("a slower op is found with its size, the others are unchanged", "[analysis][compare]") {
    Recording before(Loop{});
    Recording after(Loop{.launch_us = 50});
    auto c = compare_traces(before.model, after.model, {});
    REQUIRE(c);
    const OpLatencyChange& launch = op_change(*c, "cudaLaunchKernel");
    CHECK(launch.shift.beyond_noise);
    CHECK(launch.shift.adjusted_p_value < 1e-6);
    CHECK(launch.after.p50_ns - launch.before.p50_ns == 40 * kUs);
    CHECK_FALSE(op_change(*c, "cudaMemcpyAsync").shift.beyond_noise);
    CHECK_FALSE(op_change(*c, "cudaStreamSynchronize").shift.beyond_noise);
    // Steps start every 10 ms either way.
    CHECK_FALSE(c->throughput_beyond_noise);
    REQUIRE(c->largest_op_shift);
    CHECK(c->largest_op_shift->op == "cudaLaunchKernel");
    CHECK(causeway::report::comparison_headline(*c).find("cudaLaunchKernel p50") !=
          std::string::npos);
}

TEST_CASE("a shift below the effect floor is not a change, however many calls",
          "[analysis][compare]") {
    Recording before(Loop{});
    Recording after(Loop{.launch_us = 11});  // +1 us on a ~15 us op: below 5 us and 10%
    auto c = compare_traces(before.model, after.model, {});
    REQUIRE(c);
    const OpLatencyChange& launch = op_change(*c, "cudaLaunchKernel");
    CHECK(launch.shift.rank.tested);
    CHECK_FALSE(launch.shift.beyond_noise);
}

TEST_CASE("the fix: more steps/s and the contention cause gone", "[analysis][compare]") {
    Recording before(Loop{.step_ns = 10 * kMs, .hog = true});
    Recording after(Loop{.steps = 300, .step_ns = 5 * kMs});
    auto c = compare_traces(before.model, after.model, {});
    REQUIRE(c);
    CHECK(c->throughput_ratio == Approx(2.0));
    CHECK(c->throughput_beyond_noise);
    CHECK(c->before.loop.unit == LoopUnit::kSteps);
    CHECK(c->before.loop.marker_op == "cudaStreamSynchronize");
    CHECK(c->before.loop.calls_per_step == 5);
    CHECK(c->before.loop.regularity == Approx(1.0));
    CHECK(causeway::report::throughput_method_text(*c).find("marked by cudaStreamSynchronize") !=
          std::string::npos);
    const auto found =
        std::find_if(c->causes.begin(), c->causes.end(), [](const CauseChange& change) {
            return change.key == "CPU-CONTENDED/processes_outside/noisy_hog";
        });
    REQUIRE(found != c->causes.end());
    const CauseChange& hog = *found;
    CHECK(hog.status == CauseStatus::kGone);
    REQUIRE(hog.before_ns);
    CHECK(*hog.before_ns == 200 * 3 * kMs);
    CHECK_FALSE(hog.after_ns);
    // Removing the hog's 3 ms of each 10 ms step gains at most 10/7 = 1.43x (less where the
    // device's queued work hid some of it); this "fix" also halved the rest of the step, and the
    // headline sets the two side by side.
    REQUIRE(hog.predicted_before);
    CHECK(hog.predicted_before->speedup > 1.3);
    CHECK(hog.predicted_before->speedup <= 10.0 / 7.0 + 1e-9);
    CHECK(causeway::report::comparison_headline(*c) ==
          "2.0x more steps/s; CPU-CONTENDED by noisy_hog is gone (predicted 1.4x, measured "
          "2.0x); nothing new");
}

TEST_CASE("recordings with no CUDA op in common are refused", "[analysis][compare]") {
    Recording loop(Loop{});
    FixtureBuilder other;
    auto p = other.process(300, "allocator");
    auto t = other.thread(p, 300, "allocator");
    for (int i = 0; i < 30; ++i) {
        other.call(t, op::kMalloc, i * kMs, 10 * kUs, 4096);
    }
    const TraceModel allocator = other.load(40 * kMs);
    auto c = compare_traces(loop.model, allocator, {});
    REQUIRE_FALSE(c);
    CHECK(c.error().message.find("no CUDA operation was called in both") != std::string::npos);
    CHECK(c.error().message.find("cudaMalloc") != std::string::npos);
}

TEST_CASE("recordings of different programs are compared on their common ops, with a warning",
          "[analysis][compare]") {
    Recording trainer(Loop{});
    Recording other(Loop{.program = "serve"});
    auto c = compare_traces(trainer.model, other.model, {});
    REQUIRE(c);
    CHECK(c->differences == std::vector<Difference>{Difference::kProgram});
    CHECK(causeway::report::difference_texts(*c).at(0).find(
              "different programs (python before, serve after)") != std::string::npos);
    CHECK(c->before.program == "python");
    CHECK(c->after.program == "serve");
}
