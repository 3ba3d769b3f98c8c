// The device's queue as one thread's calls show it (analysis/measure/device_queue.hpp): when work
// entered it.
#include <catch2/catch.hpp>

#include <algorithm>

#include "analysis/measure/device_queue.hpp"
#include "tests/analysis/fixture_builder.hpp"

using namespace causeway::analysis;
using namespace causeway::testing;

TEST_CASE("a launch preempted inside had queued its work by the time it lost its CPU",
          "[analysis][queue]") {
    FixtureBuilder fixture;
    const auto process = fixture.process(100, "python");
    const auto trainer = fixture.thread(process, 100, "python");
    const auto hog = fixture.thread(fixture.process(200, "hog", std::nullopt, false), 200, "hog");
    constexpr int kSteps = 20;
    constexpr std::int64_t kStepNs = 10 * kMs;
    constexpr int kPreemptedStep = 5;
    for (int i = 0; i < kSteps; ++i) {
        const std::int64_t start = i * kStepNs;
        // Step 5's launch loses its CPU 5 us in, for 1.5 ms, and returns 1.5 ms late.
        const std::int64_t launch_ns = i == kPreemptedStep ? 1'520 * kUs : 20 * kUs;
        fixture.call(trainer, op::kLaunchKernel, start, launch_ns);
        if (i == kPreemptedStep) {
            fixture.preempted(trainer, start + 5 * kUs, 1'500 * kUs, hog);
        }
        fixture.call(trainer, op::kStreamSynchronize, start + launch_ns + 30 * kUs, 1 * kMs);
    }
    const TraceModel model = fixture.load(kSteps * kStepNs);
    const ResolvedFilter filter(model, TraceFilter{});
    const auto thread = std::find_if(model.threads.begin(), model.threads.end(),
                                     [](const auto& t) { return t.tid == 100; });
    REQUIRE(thread != model.threads.end());
    const DeviceQueue queue =
        reconstruct_queue(model, filter, static_cast<int>(thread - model.threads.begin()));
    // The first drain opens the first period: the launches of steps 1.. are in periods.
    REQUIRE(queue.enqueue_ns.size() == kSteps - 1);
    for (int i = 1; i < kSteps; ++i) {
        const std::int64_t start = i * kStepNs;
        INFO("step " << i);
        CHECK(queue.enqueue_ns[static_cast<std::size_t>(i - 1)] ==
              (i == kPreemptedStep ? start + 5 * kUs : start + 20 * kUs));
    }
}
