// Scenario 6, allocator-churn: every step allocates its activation buffers with cudaMalloc and
// releases them with cudaFree (which waits for the device), as code that bypasses a caching
// allocator does. The fix, --fixed: allocate the buffers once and reuse them.
//
// Expected diagnosis: ALLOCATION-CHURN; allocate once (or use a caching allocator).
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
    add_duration_option(app, duration_s);
    add_fixed_flag(app, fixed, "allocate the activation buffers once, before the loop");
    app.add_option("--buffers", buffers, "activation buffers per step")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    app.add_option("--buffer-mib", buffer_mib, "size of each activation buffer (MiB)")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    CLI11_PARSE(app, argc, argv);

    return run_reporting_errors("allocator-churn", [&] {
        const std::size_t batch_size = 256;
        const InMemoryDataset dataset(100'000, 100);
        const std::size_t batch_bytes = batch_size * dataset.row_bytes();
        DeviceModel model(kSmallModelStep, batch_bytes);
        PinnedBuffer inputs(batch_bytes);
        const std::size_t buffer_bytes = buffer_mib << 20;
        const auto step = [&](std::int64_t number, const std::vector<void*>& activations) {
            dataset.gather(dataset.sample_rows(number, batch_size), inputs.floats());
            model.copy_async(inputs.floats(), batch_bytes);
            model.launch_kernels(activations.front());
            model.synchronize();
        };
        Throughput result;
        if (fixed) {
            const auto activations = allocate_activations(buffers, buffer_bytes);
            result = run_batches_for(duration_s,
                                     [&](std::int64_t number) { step(number, activations); });
            free_activations(activations);
        } else {
            result = run_batches_for(duration_s, [&](std::int64_t number) {
                const auto activations = allocate_activations(buffers, buffer_bytes);
                step(number, activations);
                free_activations(activations);
            });
        }
        print_throughput("allocator-churn", fixed ? "allocate-once" : "per-step", result);
    });
}
