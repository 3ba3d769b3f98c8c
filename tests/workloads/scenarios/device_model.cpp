#include "tests/workloads/scenarios/device_model.hpp"

#include <fakecuda.h>

#include <stdexcept>
#include <string>

#include "tests/workloads/scenarios/cpu_cost.hpp"
#include "tests/workloads/scenarios/cuda_check.hpp"

namespace causeway::scenarios {
namespace {

// Host stubs standing in for compiled kernels: nvcc-generated code passes such a stub's address
// to cudaLaunchKernel, and the fake device runs it for the registered time. The bodies differ so
// that the linker cannot fold them into one address.
volatile int kernel_stub_marker = 0;
void forward_kernel() {
    kernel_stub_marker = 1;
}
void backward_kernel() {
    kernel_stub_marker = 2;
}
void optimizer_kernel() {
    kernel_stub_marker = 3;
}

void launch(void (*kernel)(), void* device_activations, cudaStream_t stream) {
    void* args[] = {&device_activations};
    check_cuda(cudaLaunchKernel(reinterpret_cast<const void*>(kernel), dim3(1024), dim3(256), args,
                                0, stream),
               "cudaLaunchKernel");
}

}  // namespace

DeviceModel::DeviceModel(const ModelStep& step, std::size_t input_bytes)
    : step_(step), input_bytes_(input_bytes) {
    if (step.kernels < 3) {
        throw std::invalid_argument("a model step needs at least 3 kernels, one per phase");
    }
    const std::uint64_t kernel_ns = step.device_ns / static_cast<std::uint64_t>(step.kernels);
    for (auto* kernel : {&forward_kernel, &backward_kernel, &optimizer_kernel}) {
        fakecudaSetKernelDuration(reinterpret_cast<const void*>(kernel), kernel_ns);
    }
    check_cuda(cudaStreamCreate(&stream_), "cudaStreamCreate");
    check_cuda(cudaMalloc(&device_input_, input_bytes), "cudaMalloc");
}

DeviceModel::~DeviceModel() {
    // Errors on the way out are not worth a failed exit: the timed part is already reported.
    cudaFree(device_input_);
    cudaStreamDestroy(stream_);
}

void DeviceModel::train_step(const void* host_batch, std::size_t bytes) {
    copy_async(host_batch, bytes);
    launch_kernels(device_input_);
    synchronize();
}

void DeviceModel::require_fits(std::size_t bytes) const {
    if (bytes > input_bytes_) {
        throw std::invalid_argument("batch of " + std::to_string(bytes) +
                                    " bytes does not fit the device input buffer of " +
                                    std::to_string(input_bytes_) + " bytes");
    }
}

void DeviceModel::copy_async(const void* host_batch, std::size_t bytes) {
    require_fits(bytes);
    check_cuda(cudaMemcpyAsync(device_input_, host_batch, bytes, cudaMemcpyHostToDevice, stream_),
               "cudaMemcpyAsync");
}

void DeviceModel::copy_blocking(const void* host_batch, std::size_t bytes) {
    require_fits(bytes);
    check_cuda(cudaMemcpy(device_input_, host_batch, bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
}

void DeviceModel::launch_kernels(void* device_activations) {
    const int forward = step_.kernels / 3;
    const int backward = step_.kernels / 2;
    for (int i = 0; i < step_.kernels; ++i) {
        spend_cpu(step_.host_ns_per_kernel);
        launch(i < forward              ? &forward_kernel
               : i < forward + backward ? &backward_kernel
                                        : &optimizer_kernel,
               device_activations, stream_);
    }
}

void DeviceModel::synchronize() {
    check_cuda(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");
}

}  // namespace causeway::scenarios
