#pragma once
// The device side of a training step on the fake CUDA runtime: a stream, a device buffer for the
// input batch, and a model step of many kernel launches (forward, backward, optimizer), each
// preceded by the framework's own CPU work for the op, as in eager PyTorch. Device work sleeps on
// the fake device; what a real runtime does on the host (staging pageable copies, launch
// overhead, spinning in synchronisation) runs on the calling thread, so CPU contention shows up
// inside these calls as it would on a GPU host.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace causeway::scenarios {

struct ModelStep {
    int kernels = 30;                      // kernel launches per step (a third forward, half
                                           // backward, the rest optimizer)
    std::uint64_t device_ns = 0;           // device time of the whole step (ns), evenly spread
    std::uint64_t host_ns_per_kernel = 0;  // framework CPU time before each launch (ns)
};

// A small MLP's step (100-512-512-10): 30 kernels, 3.5 ms of device time, and 15 us of eager
// PyTorch dispatch per op on the host.
inline constexpr ModelStep kSmallModelStep{
    .kernels = 30, .device_ns = 3'500'000, .host_ns_per_kernel = 15'000};

class DeviceModel {
  public:
    // Registers the kernel times with the fake runtime and allocates `input_bytes` on the device.
    // Only one DeviceModel may exist per process: kernel times are registered per kernel.
    DeviceModel(const ModelStep& step, std::size_t input_bytes);
    ~DeviceModel();
    DeviceModel(const DeviceModel&) = delete;
    DeviceModel& operator=(const DeviceModel&) = delete;

    // The usual step: cudaMemcpyAsync of the batch, the model's kernels, cudaStreamSynchronize.
    void train_step(const void* host_batch, std::size_t bytes);

    // The step's parts, for scenarios that change one of them.
    void copy_async(const void* host_batch, std::size_t bytes);
    void copy_blocking(const void* host_batch, std::size_t bytes);
    void launch_kernels(void* device_activations);
    void synchronize();

    void* device_input() const { return device_input_; }

  private:
    void require_fits(std::size_t bytes) const;

    ModelStep step_;
    cudaStream_t stream_ = nullptr;
    void* device_input_ = nullptr;
    std::size_t input_bytes_ = 0;
};

}  // namespace causeway::scenarios
