#include "tests/fakecuda/fake_device.hpp"

#include <catch2/catch.hpp>

namespace causeway::testing {

fakecudaConfig fake_config() {
    fakecudaConfig config{};
    REQUIRE(fakecudaGetConfig(&config) == cudaSuccess);
    return config;
}

std::uint64_t modeled_copy_ns(const fakecudaConfig& config, std::size_t bytes, double gbps) {
    return config.copy_latency_ns + static_cast<std::uint64_t>(static_cast<double>(bytes) / gbps);
}

void kernel_a(int* out) {
    *out = 1;
}
void kernel_b(int* out) {
    *out = 2;
}

namespace {

void pacing_kernel(int* out) {
    *out = 3;
}

}  // namespace

void keep_device_busy(std::uint64_t device_ns, cudaStream_t stream) {
    REQUIRE(fakecudaSetKernelDuration(reinterpret_cast<const void*>(&pacing_kernel), device_ns) ==
            cudaSuccess);
    REQUIRE(launch(&pacing_kernel, stream) == cudaSuccess);
}

DeviceBuffer::DeviceBuffer(std::size_t bytes) {
    REQUIRE(cudaMalloc(&pointer_, bytes) == cudaSuccess);
}
DeviceBuffer::~DeviceBuffer() {
    cudaFree(pointer_);
}

PinnedBuffer::PinnedBuffer(std::size_t bytes) {
    REQUIRE(cudaMallocHost(&pointer_, bytes) == cudaSuccess);
}
PinnedBuffer::~PinnedBuffer() {
    cudaFreeHost(pointer_);
}

}  // namespace causeway::testing
