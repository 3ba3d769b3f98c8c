// The device's queue as one thread's calls show it (analysis/measure/device_queue.hpp): when work
// entered it, where the loop begins, and what a drain's wait measures.
#include <catch2/catch.hpp>

#include <algorithm>

#include "analysis/measure/device_queue.hpp"
#include "tests/analysis/fixture_builder.hpp"

using namespace causeway::analysis;
using namespace causeway::testing;

namespace {

// The length of the tests' training steps.
constexpr std::int64_t kStepNs = 10 * kMs;

// A training process (pid 100) and the thread that drives its GPU; each test writes its calls.
struct Loop {
    FixtureBuilder fixture;
    std::int64_t process = fixture.process(100, "python");
    std::int64_t trainer = fixture.thread(process, 100, "python");

    // A thread of a process outside the traced tree, to preempt the trainer.
    std::int64_t hog() {
        return fixture.thread(fixture.process(200, "hog", std::nullopt, false), 200, "hog");
    }

    DeviceQueue queue(std::int64_t end_ns) {
        const TraceModel model = fixture.load(end_ns);
        const ResolvedFilter filter(model, TraceFilter{});
        const auto thread = std::find_if(model.threads.begin(), model.threads.end(),
                                         [](const auto& t) { return t.tid == 100; });
        REQUIRE(thread != model.threads.end());
        return reconstruct_queue(model, filter, static_cast<int>(thread - model.threads.begin()));
    }
};

}  // namespace

TEST_CASE("a launch preempted inside had queued its work by the time it lost its CPU",
          "[analysis][queue]") {
    Loop loop;
    const std::int64_t hog = loop.hog();
    constexpr int kSteps = 20;
    constexpr int kPreemptedStep = 5;
    for (int i = 0; i < kSteps; ++i) {
        const std::int64_t start = i * kStepNs;
        // Step 5's launch loses its CPU 5 us in, for 1.5 ms, and returns 1.5 ms late.
        const std::int64_t launch_ns = i == kPreemptedStep ? 1'520 * kUs : 20 * kUs;
        loop.fixture.call(loop.trainer, op::kLaunchKernel, start, launch_ns);
        if (i == kPreemptedStep) {
            loop.fixture.preempted(loop.trainer, start + 5 * kUs, 1'500 * kUs, hog);
        }
        loop.fixture.call(loop.trainer, op::kStreamSynchronize, start + launch_ns + 30 * kUs,
                          1 * kMs);
    }
    const DeviceQueue queue = loop.queue(kSteps * kStepNs);
    // The first drain opens the first period: the launches of steps 1.. are in periods.
    REQUIRE(queue.enqueue_ns.size() == kSteps - 1);
    for (int i = 1; i < kSteps; ++i) {
        const std::int64_t start = i * kStepNs;
        INFO("step " << i);
        CHECK(queue.enqueue_ns[static_cast<std::size_t>(i - 1)] ==
              (i == kPreemptedStep ? start + 5 * kUs : start + 20 * kUs));
    }
}

TEST_CASE("the loop begins with its first step: the set-up before it is not kept",
          "[analysis][queue]") {
    Loop loop;
    // Set-up: weights copied and a warm-up timed, 100 ms ending in a blocking copy.
    loop.fixture.call(loop.trainer, op::kLaunchKernel, 0, 20 * kUs);
    loop.fixture.call(loop.trainer, op::kMemcpy, 100 * kMs, 1 * kMs);
    // Then 20 steps of 10 ms, each opened by a synchronisation (the step marker).
    constexpr std::int64_t kFirstStepNs = 110 * kMs;
    for (int i = 0; i < 20; ++i) {
        const std::int64_t start = kFirstStepNs + i * 10 * kMs;
        loop.fixture.call(loop.trainer, op::kStreamSynchronize, start, 1 * kMs);
        loop.fixture.call(loop.trainer, op::kLaunchKernel, start + 2 * kMs, 20 * kUs);
    }
    const DeviceQueue queue = loop.queue(kFirstStepNs + 200 * kMs);
    REQUIRE_FALSE(queue.periods.empty());
    CHECK(queue.periods.front().start_ns >= kFirstStepNs);
    CHECK(queue.loop_ns() < 200 * kMs);
}

TEST_CASE("a drain barely slower after a long absence does not measure the device",
          "[analysis][queue]") {
    Loop loop;
    // Steps of 10 ms whose synchronisations return at once (20 us), but one: its thread slept
    // 120 ms after the launch, and the synchronisation then took 80 us on its CPU.
    constexpr int kSlowStep = 10;
    std::int64_t at = 0;
    for (int i = 0; i < 20; ++i) {
        loop.fixture.call(loop.trainer, op::kLaunchKernel, at, 20 * kUs);
        const std::int64_t away = i == kSlowStep ? 120 * kMs : 5 * kMs;
        if (i == kSlowStep) {
            loop.fixture.blocked(loop.trainer, at + 100 * kUs, away - 200 * kUs);
        }
        loop.fixture.call(loop.trainer, op::kStreamSynchronize, at + away,
                          i == kSlowStep ? 80 * kUs : 20 * kUs);
        at += away + 5 * kMs;
    }
    const DeviceQueue queue = loop.queue(at);
    const auto slow = std::find_if(queue.periods.begin(), queue.periods.end(),
                                   [](const DrainPeriod& p) { return p.span_ns() > 100 * kMs; });
    REQUIRE(slow != queue.periods.end());
    // 60 us more than its op's own 20 us is a wait after a 5 ms absence, not after 120 ms: the
    // device's 120 ms of work would then be measured from that cold call.
    CHECK_FALSE(slow->waited);
    CHECK(slow->device_ns < 10 * kMs);
}

TEST_CASE("a synchronisation that lost its CPU leaves the device's work to the periods like it",
          "[analysis][queue]") {
    Loop loop;
    const std::int64_t hog = loop.hog();
    // Steps of 10 ms: a launch, then a synchronisation spinning on its CPU until the device's 4 ms
    // of work are done. A hog preempts each one shortly before the device finishes (0.1-0.9 ms)
    // and holds the CPU well after (1-2.8 ms), as a scheduler's slice does, but for two of them
    // that got their CPU back at once; and one step did 6 ms of work.
    constexpr int kSteps = 40;
    constexpr std::int64_t kWorkNs = 4 * kMs;
    constexpr int kLongerStep = 20;
    for (int i = 0; i < kSteps; ++i) {
        const std::int64_t start = i * kStepNs;
        loop.fixture.call(loop.trainer, op::kLaunchKernel, start, 20 * kUs);
        const std::int64_t done = start + 20 * kUs + (i == kLongerStep ? 6 * kMs : kWorkNs);
        const std::int64_t before_done = (100 + (i % 5) * 200) * kUs;
        const std::int64_t after_done =
            i == 7 || i == 29 ? 30 * kUs : (1'000 + (i % 4) * 600) * kUs;
        loop.fixture.preempted(loop.trainer, done - before_done, before_done + after_done, hog);
        const std::int64_t entry = start + 50 * kUs;
        loop.fixture.call(loop.trainer, op::kStreamSynchronize, entry,
                          done + after_done + 10 * kUs - entry);
    }
    const DeviceQueue queue = loop.queue(kSteps * kStepNs);
    REQUIRE(queue.periods.size() >= kSteps - 2);
    // The middle of the range the periods' 10th and 90th percentiles leave, 3.9-5 ms, is 4.45 ms:
    // the long waits after the device was done would count as its work.
    for (const DrainPeriod& p : queue.periods) {
        INFO("period from " << p.start_ns << ": work " << p.device_low_ns << ".." << p.device_ns
                            << ".." << p.device_high_ns);
        CHECK_FALSE(p.waited);
        CHECK(p.device_low_ns <= p.device_ns);
        CHECK(p.device_ns <= p.device_high_ns);
        if (p.drain_entry_ns / kStepNs != kLongerStep) {
            CHECK(p.device_ns == Approx(kWorkNs).epsilon(0.03));
        }
    }
}

TEST_CASE("a synchronisation held off by its quota long after the device finished measures nothing",
          "[analysis][queue]") {
    Loop loop;
    // Steps of 10 ms: a launch of 3 ms of work, then a synchronisation spinning on its CPU. In one,
    // the thread's group used its quota 1 ms in: held off its CPU for 70 ms, it took 80 us on its
    // CPU to return, from a device done 68 ms before.
    constexpr int kThrottledStep = 10;
    constexpr std::int64_t kWorkNs = 3 * kMs;
    std::int64_t at = 0;
    for (int i = 0; i < 20; ++i) {
        loop.fixture.call(loop.trainer, op::kLaunchKernel, at, 20 * kUs);
        const std::int64_t entry = at + 50 * kUs;
        std::int64_t sync_ns = kWorkNs;
        if (i == kThrottledStep) {
            loop.fixture.throttled(loop.trainer, entry + 1 * kMs, 70 * kMs, std::nullopt);
            sync_ns = 1 * kMs + 70 * kMs + 80 * kUs;
        }
        loop.fixture.call(loop.trainer, op::kStreamSynchronize, entry, sync_ns);
        at = entry + sync_ns + 7 * kMs;
    }
    const DeviceQueue queue = loop.queue(at);
    const auto held = std::find_if(queue.periods.begin(), queue.periods.end(),
                                   [](const DrainPeriod& p) { return p.span_ns() > 50 * kMs; });
    REQUIRE(held != queue.periods.end());
    // 60 us more than the synchronisation's own 20 us is a wait after a 5 ms absence, not after
    // 70 ms: the device's 71 ms of work would be measured from that cold return.
    CHECK_FALSE(held->waited);
    CHECK(held->device_ns == Approx(kWorkNs).epsilon(0.05));
}
