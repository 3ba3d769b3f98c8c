// Scenario 6, allocator-churn: every step allocates its activation buffers with cudaMalloc and
// releases them with cudaFree right after queuing its kernels, as code that bypasses a caching
// allocator (or empties it every step) does: each call costs host time, and the first cudaFree
// waits for the device, so the host cannot run ahead. The fix, --fixed: allocate the buffers
// once and reuse them.
//
// The fake device charges FAKECUDA_MALLOC_NS of CPU per cudaMalloc/cudaFree; unless the
// environment sets it, this program sets it to --malloc-us, what a cudaMalloc or cudaFree of tens
// of MiB costs on a real GPU (hundreds of microseconds).
//
// Expected diagnosis: ALLOCATION-CHURN; allocate once (or use a caching allocator).
#include <cstdlib>
#include <string>
#include <vector>

#include "tests/workloads/scenarios/cuda_check.hpp"
#include "tests/workloads/scenarios/device_model.hpp"
#include "tests/workloads/scenarios/in_memory_dataset.hpp"
#include "tests/workloads/scenarios/pinned_buffer.hpp"
#include "tests/workloads/scenarios/scenario_run.hpp"

using namespace causeway::scenarios;

namespace {

std::vector<void*> allocate_activations(int buffers, std::size_t bytes) {
    std::vector<void*> activations(static_cast<std::size_t>(buffers));
    for (auto& buffer : activations) {
        check_cuda(cudaMalloc(&buffer, bytes), "cudaMalloc");
    }
    return activations;
}

void free_activations(const std::vector<void*>& activations) {
    for (void* buffer : activations) {
        check_cuda(cudaFree(buffer), "cudaFree");
    }
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"allocator-churn: cudaMalloc and cudaFree in every step"};
    double duration_s = 0;
    bool fixed = false;
    int buffers = 8;
    std::size_t buffer_mib = 64;
    unsigned long malloc_us = 250;
    add_duration_option(app, duration_s);
    add_fixed_flag(app, fixed, "allocate the activation buffers once, before the loop");
    app.add_option("--buffers", buffers, "activation buffers per step")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    app.add_option("--buffer-mib", buffer_mib, "size of each activation buffer (MiB)")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    app.add_option("--malloc-us", malloc_us,
                   "host cost of one cudaMalloc or cudaFree on the emulated device (microseconds)")
        ->capture_default_str();
    CLI11_PARSE(app, argc, argv);
    // Read by the fake driver when the first CUDA call loads it, so set before any.
    ::setenv("FAKECUDA_MALLOC_NS", std::to_string(malloc_us * 1000).c_str(), /*overwrite=*/0);

    return run_reporting_errors("allocator-churn", [&] {
        const std::size_t batch_size = 256;
        const InMemoryDataset dataset(100'000, 100);
        const std::size_t batch_bytes = batch_size * dataset.row_bytes();
        DeviceModel model(kSmallModelStep, batch_bytes);
        PinnedBuffer inputs(batch_bytes);
        const std::size_t buffer_bytes = buffer_mib << 20;
        const auto queue_step = [&](std::int64_t number, void* activations) {
            dataset.gather(dataset.sample_rows(number, batch_size), inputs.floats());
            model.copy_async(inputs.floats(), batch_bytes);
            model.launch_kernels(activations);
        };
        Throughput result;
        if (fixed) {
            const auto activations = allocate_activations(buffers, buffer_bytes);
            result = run_batches_for(duration_s, [&](std::int64_t number) {
                queue_step(number, activations.front());
                model.synchronize();
            });
            free_activations(activations);
        } else {
            result = run_batches_for(duration_s, [&](std::int64_t number) {
                const auto activations = allocate_activations(buffers, buffer_bytes);
                queue_step(number, activations.front());
                free_activations(activations);  // the first cudaFree waits for the step
            });
        }
        print_throughput("allocator-churn", fixed ? "allocate-once" : "per-step", result);
    });
}
