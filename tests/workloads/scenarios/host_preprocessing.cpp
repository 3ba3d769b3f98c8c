// Scenario 8, host-preprocessing: the training thread augments each batch itself (the gather plus
// --prep-cpu-us of CPU) after the previous step's synchronisation, so the device's queue is empty
// while it computes: host and device take turns. No other thread wants the CPUs. The fix,
// --fixed: the same work moved off the critical path, prepared for step n+1 while the device runs
// step n (as the healthy scenario does, and as a DataLoader worker would).
//
// Expected diagnosis: HOST-BOUND, the training thread's own work, predicting what the overlap
// gains.
#include <array>
#include <string>

#include "tests/workloads/scenarios/cpu_cost.hpp"
#include "tests/workloads/scenarios/device_model.hpp"
#include "tests/workloads/scenarios/in_memory_dataset.hpp"
#include "tests/workloads/scenarios/pinned_buffer.hpp"
#include "tests/workloads/scenarios/scenario_run.hpp"

using namespace causeway::scenarios;

int main(int argc, char** argv) {
    CLI::App app{"host-preprocessing: the training thread prepares each batch between steps"};
    double duration_s = 0;
    bool fixed = false;
    std::size_t batch_size = 2048;
    std::uint64_t prep_cpu_us = 2500;
    add_duration_option(app, duration_s);
    add_fixed_flag(app, fixed, "prepare the next batch while the device runs this step");
    app.add_option("--batch-size", batch_size, "rows per batch")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    app.add_option("--prep-cpu-us", prep_cpu_us,
                   "host CPU time per batch besides the gather: augmentation (microseconds)")
        ->capture_default_str();
    CLI11_PARSE(app, argc, argv);

    return run_reporting_errors("host-preprocessing", [&] {
        const InMemoryDataset dataset(200'000, 100);
        const std::size_t batch_bytes = batch_size * dataset.row_bytes();
        DeviceModel model(kSmallModelStep, batch_bytes);
        std::array<PinnedBuffer, 2> inputs{PinnedBuffer(batch_bytes), PinnedBuffer(batch_bytes)};
        const auto prepare = [&](std::int64_t number) {
            dataset.gather(dataset.sample_rows(number, batch_size), inputs[number % 2].floats());
            spend_cpu_up_to(thread_cpu_ns(), prep_cpu_us * 1000);
        };
        const auto step = [&](std::int64_t number) {
            model.copy_async(inputs[number % 2].floats(), batch_bytes);
            model.launch_kernels(model.device_input());
        };
        if (fixed) {
            prepare(0);
        }
        const Throughput result = run_batches_for(duration_s, [&](std::int64_t number) {
            if (fixed) {
                step(number);
                prepare(number + 1);  // overlaps the device's work on this step
            } else {
                prepare(number);  // the device's queue is empty meanwhile
                step(number);
            }
            model.synchronize();
        });
        print_throughput("host-preprocessing", fixed ? "overlapped" : "serial", result);
    });
}
