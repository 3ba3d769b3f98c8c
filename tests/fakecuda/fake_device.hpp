#pragma once
// Helpers for tests that drive the fake runtime: its effective configuration, RAII device and
// pinned buffers, and "kernels" (distinct host functions whose addresses name them).

#include <cuda_runtime.h>
#include <fakecuda.h>

#include <cstddef>
#include <cstdint>

namespace causeway::testing {

// The fake's effective model; fails the test if the configuration is invalid.
fakecudaConfig fake_config();

// Modeled device time of copying `bytes` at `gbps`, with the fake's fixed copy latency.
std::uint64_t modeled_copy_ns(const fakecudaConfig& config, std::size_t bytes, double gbps);

void kernel_a(int* out);
void kernel_b(int* out);

// Through the typed overload of cuda_runtime.h, as CUDA C++ code launches.
template <typename Kernel>
cudaError_t launch(Kernel* kernel, cudaStream_t stream = nullptr) {
    return cudaLaunchKernel(kernel, dim3(1), dim3(1), nullptr, 0, stream);
}

// Queues a kernel of `device_ns` on `stream`, so that work queued behind it meanwhile runs back to
// back on the device however late the host gets to queue it (exact device-side timings).
void keep_device_busy(std::uint64_t device_ns, cudaStream_t stream = nullptr);

class DeviceBuffer {
  public:
    explicit DeviceBuffer(std::size_t bytes);
    ~DeviceBuffer();
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    void* get() const { return pointer_; }

  private:
    void* pointer_ = nullptr;
};

class PinnedBuffer {
  public:
    explicit PinnedBuffer(std::size_t bytes);
    ~PinnedBuffer();
    PinnedBuffer(const PinnedBuffer&) = delete;
    PinnedBuffer& operator=(const PinnedBuffer&) = delete;
    void* get() const { return pointer_; }

  private:
    void* pointer_ = nullptr;
};

}  // namespace causeway::testing
