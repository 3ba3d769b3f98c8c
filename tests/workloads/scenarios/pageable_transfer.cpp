// Scenario 5, pageable-transfer: every step copies a large batch (--batch-mib) to the device from
// ordinary pageable memory with cudaMemcpy, so the runtime stages it through a bounce buffer on
// the host and the transfer runs at pageable bandwidth, while the kernels are short. The fix,
// --fixed: the batch lives in pinned memory (cudaMallocHost) and is copied with cudaMemcpyAsync.
//
// Expected diagnosis: TRANSFER-BOUND; pinned memory.
#include <cstring>
#include <memory>
#include <string>

#include "tests/workloads/scenarios/device_model.hpp"
#include "tests/workloads/scenarios/pinned_buffer.hpp"
#include "tests/workloads/scenarios/scenario_run.hpp"

using namespace causeway::scenarios;

namespace {

// A new batch's contents: the host writes its header before the copy.
void stamp_batch(float* batch, std::int64_t number) {
    batch[0] = static_cast<float>(number);
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"pageable-transfer: large copies from pageable memory dominate the step"};
    double duration_s = 0;
    bool fixed = false;
    std::size_t batch_mib = 64;
    add_duration_option(app, duration_s);
    add_fixed_flag(app, fixed, "pinned host memory (cudaMallocHost) and cudaMemcpyAsync");
    app.add_option("--batch-mib", batch_mib, "size of the batch copied each step (MiB)")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    CLI11_PARSE(app, argc, argv);

    return run_reporting_errors("pageable-transfer", [&] {
        const std::size_t batch_bytes = batch_mib << 20;
        DeviceModel model(kSmallModelStep, batch_bytes);
        Throughput result;
        if (fixed) {
            PinnedBuffer batch(batch_bytes);
            std::memset(batch.floats(), 0, batch_bytes);
            result = run_batches_for(duration_s, [&](std::int64_t number) {
                stamp_batch(batch.floats(), number);
                model.train_step(batch.floats(), batch_bytes);
            });
        } else {
            const auto batch = std::make_unique<float[]>(batch_bytes / sizeof(float));
            result = run_batches_for(duration_s, [&](std::int64_t number) {
                stamp_batch(batch.get(), number);
                model.copy_blocking(batch.get(), batch_bytes);
                model.launch_kernels(model.device_input());
                model.synchronize();
            });
        }
        print_throughput("pageable-transfer", fixed ? "pinned" : "pageable", result);
    });
}
