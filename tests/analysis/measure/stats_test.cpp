// Trace statistics, filters, timeline and stacks over hand-built fixtures with known answers.
#include <catch2/catch.hpp>

#include "analysis/measure/stacks.hpp"
#include "analysis/measure/timeline.hpp"
#include "analysis/measure/trace_stats.hpp"
#include "tests/analysis/fixture_builder.hpp"
#include "tracedb/reader.hpp"

using namespace causeway::analysis;
using namespace causeway::testing;

namespace {

// Thread 100 calls cudaStreamSynchronize 1000 times lasting 1..1000 us (shuffled order), each
// cudaLaunchKernel encloses a cuLaunchKernel; pid 200 calls cudaMemcpy 10 times.
struct KnownTrace {
    FixtureBuilder fixture;
    TraceModel model;

    KnownTrace() : model(build()) {}

    TraceModel build() {
        auto p = fixture.process(100, "python");
        auto t = fixture.thread(p, 100, "python");
        auto other = fixture.process(200, "other");
        auto t2 = fixture.thread(other, 200, "other");
        for (int i = 0; i < 1000; ++i) {
            std::int64_t us = (i * 7919) % 1000 + 1;  // a permutation of 1..1000
            fixture.call(t, op::kStreamSynchronize, i * kMs, us * kUs);
        }
        for (int i = 0; i < 10; ++i) {
            std::int64_t t0 = 1000 * kMs + i * kMs;
            fixture.call(t, op::kLaunchKernel, t0, 30 * kUs);
            fixture.call(t, op::kCuLaunchKernel, t0 + 5 * kUs, 10 * kUs);
            fixture.call(t2, op::kMemcpy, t0, 100 * kUs, 1 << 20, 0);
        }
        REQUIRE(fixture.writer().add_page_alloc(
            {.process_id = p, .bucket_ns = 0, .count = 5, .bytes = 5 * 4096}));
        fixture.preempted(t, 500 * kMs + 2 * kUs, 400 * kUs, std::nullopt);
        fixture.snapshots(1100 * kMs, 40, 2);
        return fixture.load(1100 * kMs);
    }
};

const OpStats& find(const TraceStats& stats, const std::string& op) {
    for (const auto& s : stats.ops) {
        if (s.op == op) {
            return s;
        }
    }
    FAIL("no stats for " << op);
    throw;
}

}  // namespace

TEST_CASE("per-op percentiles are exact", "[analysis][stats]") {
    KnownTrace trace;
    auto stats = compute_stats(trace.model, {});
    const OpStats& sync = find(stats, "cudaStreamSynchronize");
    CHECK(sync.dur.count == 1000);
    CHECK(sync.dur.p50_ns == 500 * kUs);
    CHECK(sync.dur.p95_ns == 950 * kUs);
    CHECK(sync.dur.p99_ns == 990 * kUs);
    CHECK(sync.dur.max_ns == 1000 * kUs);
    CHECK(sync.dur.min_ns == 1 * kUs);
    CHECK(sync.dur.total_ns == 500'500 * kUs);
    CHECK(sync.api == "runtime");
    const OpStats& copy = find(stats, "cudaMemcpy");
    CHECK(copy.bytes == 10 << 20);
    CHECK(copy.pageable_calls == 10);
    REQUIRE(copy.throughput_bytes_per_s);
    CHECK(*copy.throughput_bytes_per_s == Approx((10 << 20) / 1e-3));
    CHECK(stats.calls == 1030);
    CHECK(stats.host.page_allocs == 5);
    CHECK(stats.host.snapshots == 10);  // 100 ms .. 1000 ms; the one at the stop time is past it
}

TEST_CASE("driver calls inside runtime calls are reported but marked enclosed",
          "[analysis][stats]") {
    KnownTrace trace;
    auto stats = compute_stats(trace.model, {});
    CHECK(find(stats, "cuLaunchKernel").dur.count == 10);
    CHECK(find(stats, "cuLaunchKernel").enclosed_calls == 10);
    CHECK(find(stats, "cudaLaunchKernel").enclosed_calls == 0);
}

TEST_CASE("filters select a process, an op and a window", "[analysis][stats]") {
    KnownTrace trace;
    auto by_pid = compute_stats(trace.model, {.pid = 200});
    REQUIRE(by_pid.ops.size() == 1);
    CHECK(by_pid.ops[0].op == "cudaMemcpy");

    auto by_op = compute_stats(trace.model, {.op = "cudaLaunchKernel"});
    REQUIRE(by_op.ops.size() == 1);
    CHECK(by_op.calls == 10);

    auto window = parse_window("100ms..200ms", trace.model.end_ns());
    REQUIRE(window);
    auto windowed = compute_stats(trace.model, {.window = *window});
    CHECK(windowed.calls == 100);
    CHECK(windowed.range.dur_ns() == 100 * kMs);
}

TEST_CASE("bad filters say what exists", "[analysis][stats]") {
    KnownTrace trace;
    auto pid = validate_filter(trace.model, {.pid = 4242});
    REQUIRE_FALSE(pid);
    CHECK(pid.error().message.find("traced pids: 100, 200") != std::string::npos);
    auto op = validate_filter(trace.model, {.op = "cudaNope"});
    REQUIRE_FALSE(op);
    CHECK(op.error().message.find("cudaMemcpyAsync") != std::string::npos);
    CHECK_FALSE(parse_window("10s", 0));
    CHECK_FALSE(parse_window("20s..10s", 30'000 * kMs));
    CHECK(parse_window("1.5s..", 3'000 * kMs)->start_ns == 1'500 * kMs);
    CHECK(parse_window("..250ms", 3'000 * kMs)->end_ns == 250 * kMs);
    auto unit = parse_duration_ns("5 parsecs");
    REQUIRE_FALSE(unit);
    CHECK(unit.error().message.find("unit") != std::string::npos);
}

TEST_CASE("durations and windows beyond int64 or not numbers are refused when parsed",
          "[analysis][filter]") {
    // Each of these once overflowed std::llround: the window started at INT64_MIN.
    for (const char* text : {"1e10s", "1e308s", "18446744073709551615ns", "9.3e18ns", "2e16m",
                             "nan", "inf", "-inf", "-1s", "1e1000"}) {
        INFO(text);
        auto duration = parse_duration_ns(text);
        REQUIRE_FALSE(duration);
        CHECK_FALSE(duration.error().message.empty());
        auto window = parse_window(std::string(text) + "..", 3'000 * kMs);
        REQUIRE_FALSE(window);
        CHECK(window.error().message.find("window start") == 0);
        CHECK_FALSE(parse_window(std::string("..") + text, 3'000 * kMs));
    }
    CHECK(parse_duration_ns("1e10s").error().message.find("31 years") != std::string::npos);
    CHECK(parse_duration_ns("1e18ns").value() == kMaxDurationNs);
    CHECK_FALSE(parse_duration_ns("1.0000001e18ns"));
    // A window far past the trace but inside the range parses; its start is checked against the
    // trace by validate_filter.
    auto late = parse_window("1e8s..", kMaxDurationNs);
    REQUIRE(late);
    CHECK(late->start_ns == 100'000'000 * 1'000'000'000LL);
    CHECK(late->dur_ns() > 0);
}

TEST_CASE("the timeline buckets calls, off-CPU time and samples", "[analysis][timeline]") {
    KnownTrace trace;
    auto timeline = compute_timeline(trace.model, {.buckets = 11});
    REQUIRE(timeline.buckets.size() == 11);
    CHECK(timeline.bucket_ns == 100 * kMs);
    CHECK(timeline.buckets[0].cuda_calls == 100);
    CHECK(timeline.buckets[10].cuda_calls == 20);  // launches and copies; cuLaunchKernel enclosed
    CHECK(timeline.buckets[5].preempted_ns == 400 * kUs);
    CHECK(timeline.buckets[5].switches == 1);
    CHECK(timeline.buckets[4].preempted_ns == 0);
    CHECK(timeline.buckets[0].page_allocs == 5);
    REQUIRE(timeline.buckets[1].cpu_busy_pct);
    CHECK(*timeline.buckets[1].cpu_busy_pct == Approx(40));
}

TEST_CASE("stacks group CUDA time by call stack", "[analysis][stacks]") {
    FixtureBuilder fixture;
    auto p = fixture.process(100, "python");
    auto t = fixture.thread(p, 100, "python");
    auto stack = fixture.writer().add_stack(
        p, {{.depth = 0,
             .address = 0x1000,
             .module = "libcudart.so.13",
             .symbol = "cudaStreamSynchronize",
             .offset = 0},
            {.depth = 1, .address = 0x2000, .module = "train.py", .symbol = "step"}});
    REQUIRE(stack);
    for (int i = 0; i < 5; ++i) {
        REQUIRE(fixture.writer().add_cuda_call({.thread_id = t,
                                                .op_id = op::kStreamSynchronize,
                                                .ts_ns = i * kMs,
                                                .dur_ns = 100 * kUs,
                                                .stack_id = *stack}));
    }
    fixture.call(t, op::kLaunchKernel, 10 * kMs, 10 * kUs);
    auto model = fixture.load(20 * kMs);
    auto reader = causeway::tracedb::TraceReader::open(fixture.path());
    REQUIRE(reader);
    auto report = top_stacks(*reader, model, {}, 10);
    REQUIRE(report);
    CHECK(report->calls_with_stack == 5);
    REQUIRE(report->stacks.size() == 1);
    CHECK(report->stacks[0].total_ns == 500 * kUs);
    CHECK(report->stacks[0].pid == 100);
    REQUIRE(report->stacks[0].frames.size() == 2);
    CHECK(report->stacks[0].frames[1].symbol == "step");
}
