// The thread's own work read as a replay asks for it (own_compute_time.hpp) is, at every moment,
// the time of the intervals the causes' timelines hold for it when they keep every category
// (cause_time.hpp): with preemptions, sleeps, batches received after the workers' wakeups, and
// moments that step back a little (a period's drain and device finish), far (past the pieces it
// keeps) and before the first call.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "analysis/diagnose/cause_time.hpp"
#include "analysis/diagnose/own_compute_time.hpp"
#include "analysis/diagnose/process_roles.hpp"
#include "tests/analysis/fixture_builder.hpp"

using namespace causeway::analysis;
using namespace causeway::testing;

namespace {

constexpr int kCalls = 30'000;  // past several checkpoints and the pieces kept
constexpr std::int64_t kRead = 0;

// The time of `intervals` (weight 1) in [0, ts_ns).
std::int64_t time_before(const IntervalList& intervals, std::int64_t ts_ns) {
    std::int64_t sum = 0;
    for (const WeightedInterval& i : intervals) {
        sum += std::max<std::int64_t>(0, std::min(ts_ns, i.end_ns) - i.start_ns);
    }
    return sum;
}

}  // namespace

TEST_CASE("the own work read as a replay asks is the own work the timelines hold",
          "[analysis][diagnose]") {
    FixtureBuilder fixture;
    const std::int64_t process = fixture.process(100, "python");
    const std::int64_t thread = fixture.thread(process, 100, "python");
    const std::int64_t worker_process = fixture.process(101, "pt_data_worker", process);
    const std::int64_t worker = fixture.thread(worker_process, 101, "pt_data_worker");
    std::mt19937_64 random(29);
    auto between = [&](std::int64_t low, std::int64_t high) {
        return std::uniform_int_distribution<std::int64_t>(low, high)(random);
    };
    std::int64_t at = 1 * kMs;
    for (int i = 0; i < kCalls; ++i) {
        const bool sync = i % 10 == 9;
        const std::int64_t dur = sync ? between(0, 2 * kMs) : between(0, 30 * kUs);
        fixture.call(thread, sync ? op::kStreamSynchronize : op::kLaunchKernel, at, dur);
        const std::int64_t gap = between(1 * kUs, 300 * kUs);
        // Some gaps lose the CPU, some sleep until the worker sends a batch.
        if (i % 7 == 3) {
            fixture.preempted(thread, at + dur + gap / 3, gap / 3, worker);
        } else if (i % 11 == 5) {
            fixture.woken(thread, at + dur + gap / 4, gap / 2, gap / 8,
                          {.waker_thread_id = worker, .syscall_nr = kRead});
        }
        at += dur + gap;
    }
    const TraceModel model = fixture.load(at + 1 * kMs);
    const Roles roles = assign_roles(model);
    const ResolvedFilter filter(model, TraceFilter{});
    const CallAccounting accounting = account_calls(model, roles, filter);
    REQUIRE(accounting.primary.size() == 1);
    const CauseTimeline timeline =
        cause_timeline(model, roles, filter, accounting, attribute_causes(model, roles, accounting),
                       /*every_category=*/true);
    REQUIRE(timeline.own_compute[0]);
    // Some of the time on a CPU between calls is the workers' (receiving their batch), not own.
    CHECK(std::any_of(timeline.by_cause.begin(), timeline.by_cause.end(), [](const auto& cause) {
        return cause.first.kind == CauseKind::kDataLoaderWorkers;
    }));
    const IntervalList& held = timeline.by_cause.at(*timeline.own_compute[0])[0];
    REQUIRE(held.size() > 20'000);
    CHECK(timeline.own_compute_ns[0] == time_before(held, at + 1 * kMs));

    // The moments a replay asks about: on in steps, back a little now and then, far back twice.
    std::vector<std::int64_t> moments;
    for (std::int64_t ts = 0; ts < at; ts += between(10 * kUs, 400 * kUs)) {
        moments.push_back(ts);
        if (between(0, 9) == 0) {
            moments.push_back(ts - between(0, 500 * kUs));
        }
    }
    moments.insert(moments.begin() + static_cast<std::ptrdiff_t>(moments.size() / 2),
                   {at / 4, -5, at / 3});
    moments.push_back(at / 5);
    moments.push_back(at + 5 * kMs);

    OwnComputeTime own(model, roles, filter, accounting.primary[0].thread_index);
    // The held list's running sums, for the expected values at every moment.
    std::vector<std::pair<std::int64_t, std::int64_t>> starts;  // (start, time before it)
    std::int64_t sum = 0;
    for (const WeightedInterval& i : held) {
        starts.emplace_back(i.start_ns, sum);
        sum += i.end_ns - i.start_ns;
    }
    for (const std::int64_t ts : moments) {
        const auto after = std::partition_point(starts.begin(), starts.end(),
                                                [ts](const auto& s) { return s.first < ts; });
        std::int64_t expected = 0;
        if (after != starts.begin()) {
            const auto k = static_cast<std::size_t>(after - starts.begin()) - 1;
            const WeightedInterval last = held[k];
            expected = starts[k].second + (std::min(ts, last.end_ns) - last.start_ns);
        }
        INFO("at " << ts);
        REQUIRE(own.before(ts) == static_cast<double>(expected));
    }
}
