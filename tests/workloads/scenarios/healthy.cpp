// Scenario 7, healthy: the control. A training loop written the way the guides say: batches are
// gathered by direct indexing into pinned memory, double-buffered so that the host prepares
// batch n+1 (the gather, then augmentation up to --host-cpu-us of CPU in all) while the device
// runs step n, copied with cudaMemcpyAsync, buffers allocated once, no competitor for the CPUs.
// Host and device are balanced on any CPU: the host's work per batch has a fixed CPU cost that,
// with the launches' own, is about 80% of the device's step, so the host waits briefly for the
// device and neither a faster device nor less host work would gain much. There is no fix to
// apply.
//
// A machine loaded beyond its CPUs can slow the host's part past the device's step: the loop is
// then host-bound by a hair, not the control. The program prints the share of steps whose
// synchronisation found the device still working (`device_busy_at_sync_share=`), and the verdict
// the loop ran as: `ran_as=HEALTHY` where at least half of them did, else `ran_as=HOST-BOUND`.
//
// Expected diagnosis: HEALTHY, and no chain of HIGH confidence.
#include <array>
#include <chrono>
#include <cstdio>
#include <string>

#include "tests/workloads/scenarios/cpu_cost.hpp"
#include "tests/workloads/scenarios/device_model.hpp"
#include "tests/workloads/scenarios/in_memory_dataset.hpp"
#include "tests/workloads/scenarios/pinned_buffer.hpp"
#include "tests/workloads/scenarios/scenario_run.hpp"

using namespace causeway::scenarios;

namespace {

// A synchronisation that returns sooner found the device done: it costs the host microseconds.
constexpr auto kDeviceStillWorking = std::chrono::microseconds(50);

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"healthy: a balanced, overlapped training loop (the control)"};
    double duration_s = 0;
    std::size_t batch_size = 2048;
    std::uint64_t host_cpu_us = 2400;
    add_duration_option(app, duration_s);
    app.add_option("--batch-size", batch_size, "rows per batch")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    app.add_option("--host-cpu-us", host_cpu_us,
                   "host CPU time per batch: the gather, then augmentation (microseconds)")
        ->capture_default_str();
    CLI11_PARSE(app, argc, argv);

    return run_reporting_errors("healthy", [&] {
        const InMemoryDataset dataset(200'000, 100);
        const std::size_t batch_bytes = batch_size * dataset.row_bytes();
        DeviceModel model(kSmallModelStep, batch_bytes);
        std::array<PinnedBuffer, 2> inputs{PinnedBuffer(batch_bytes), PinnedBuffer(batch_bytes)};
        const auto prepare = [&](std::int64_t number) {
            const std::uint64_t start_ns = thread_cpu_ns();
            dataset.gather(dataset.sample_rows(number, batch_size), inputs[number % 2].floats());
            spend_cpu_up_to(start_ns, host_cpu_us * 1000);
        };
        prepare(0);
        std::int64_t device_busy_at_sync = 0;
        const Throughput result = run_batches_for(duration_s, [&](std::int64_t number) {
            model.copy_async(inputs[number % 2].floats(), batch_bytes);
            model.launch_kernels(model.device_input());
            prepare(number + 1);  // overlaps the device's work on this step
            const auto sync_start = std::chrono::steady_clock::now();
            model.synchronize();
            if (std::chrono::steady_clock::now() - sync_start > kDeviceStillWorking) {
                ++device_busy_at_sync;
            }
        });
        const double busy_share = result.batches > 0 ? static_cast<double>(device_busy_at_sync) /
                                                           static_cast<double>(result.batches)
                                                     : 0.0;
        std::printf("device_busy_at_sync_share=%.3f\nran_as=%s\n", busy_share,
                    busy_share >= 0.5 ? "HEALTHY" : "HOST-BOUND");
        print_throughput("healthy", "double-buffered", result);
    });
}
