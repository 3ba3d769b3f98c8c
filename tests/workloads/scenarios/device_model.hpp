#pragma once
// The device side of a training step on the fake CUDA runtime: a stream, a device buffer for the
// input batch, and three kernels (forward, backward, optimizer step) whose emulated device time
// each scenario chooses. Device work sleeps on the fake device; what a real runtime does on the
// host (staging pageable copies, launch overhead, spinning in synchronisation) runs on the
// calling thread, so CPU contention shows up inside these calls as it would on a GPU host.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace causeway::scenarios {

struct KernelTimes {
    std::uint64_t forward_ns = 0;    // device time of the forward kernel (ns)
    std::uint64_t backward_ns = 0;   // device time of the backward kernel (ns)
    std::uint64_t optimizer_ns = 0;  // device time of the optimizer-step kernel (ns)
};

// A small model's step: about 3.5 ms of device time.
inline constexpr KernelTimes kSmallModelStep{
    .forward_ns = 1'000'000, .backward_ns = 2'000'000, .optimizer_ns = 500'000};

class DeviceModel {
  public:
    // Registers the kernel times with the fake runtime and allocates `input_bytes` on the device.
    // Only one DeviceModel may exist per process: kernel times are registered per kernel.
    DeviceModel(const KernelTimes& times, std::size_t input_bytes);
    ~DeviceModel();
    DeviceModel(const DeviceModel&) = delete;
    DeviceModel& operator=(const DeviceModel&) = delete;

    // The usual step: cudaMemcpyAsync of the batch, the three kernels, cudaStreamSynchronize.
    void train_step(const void* host_batch, std::size_t bytes);

    // The step's parts, for scenarios that change one of them.
    void copy_async(const void* host_batch, std::size_t bytes);
    void copy_blocking(const void* host_batch, std::size_t bytes);
    void launch_kernels(void* device_activations);
    void synchronize();

    void* device_input() const { return device_input_; }

  private:
    void require_fits(std::size_t bytes) const;

    cudaStream_t stream_ = nullptr;
    void* device_input_ = nullptr;
    std::size_t input_bytes_ = 0;
};

}  // namespace causeway::scenarios
