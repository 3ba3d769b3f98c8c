// Scenario 3, gpu-bound: long kernels; the host gathers a small batch by direct indexing in well
// under a millisecond and then waits in cudaStreamSynchronize for the device with its CPUs
// otherwise idle. The input pipeline is fine. The fix, --fixed: a cheaper model step on the
// device (kernels of half the time, as mixed precision or a fused kernel would give).
//
// Expected diagnosis: GPU-BOUND; the input pipeline is not the problem.
#include <string>

#include "tests/workloads/scenarios/scenario_run.hpp"
#include "tests/workloads/scenarios/training_steps.hpp"

using namespace causeway::scenarios;

int main(int argc, char** argv) {
    CLI::App app{"gpu-bound: long kernels, the host idle in synchronisation"};
    double duration_s = 0;
    bool fixed = false;
    std::size_t batch_size = 256;
    add_duration_option(app, duration_s);
    add_fixed_flag(app, fixed, "kernels that take half the device time");
    app.add_option("--batch-size", batch_size, "rows per batch")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    CLI11_PARSE(app, argc, argv);

    return run_reporting_errors("gpu-bound", [&] {
        const InMemoryDataset dataset(100'000, 100);
        // A large model: 40 ms of device time a step, 20 ms with the fix.
        const ModelStep step{.kernels = kSmallModelStep.kernels,
                             .device_ns = fixed ? 20'000'000u : 40'000'000u,
                             .host_ns_per_kernel = kSmallModelStep.host_ns_per_kernel};
        DeviceModel model(step, batch_size * dataset.row_bytes());
        const Throughput result = run_batches_for(duration_s, [&](std::int64_t batch) {
            train_on_direct_batch(dataset, model, batch, batch_size);
        });
        print_throughput("gpu-bound", fixed ? "half-kernel-time" : "baseline", result);
    });
}
