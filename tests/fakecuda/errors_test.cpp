// Invalid arguments get the error codes the real runtime uses, and failures are remembered as
// the thread's last error.

#include <catch2/catch.hpp>
#include <cstdint>
#include <string>

#include "tests/fakecuda/fake_device.hpp"

using namespace causeway::testing;

namespace {

const auto kUnknownStream = reinterpret_cast<cudaStream_t>(0x1234);
const auto kUnknownEvent = reinterpret_cast<cudaEvent_t>(0x1234);

}  // namespace

TEST_CASE("invalid arguments return the real runtime's error codes") {
    int host_value = 0;
    void* unset = nullptr;
    DeviceBuffer device(4096);
    CHECK(cudaMalloc(nullptr, 16) == cudaErrorInvalidValue);
    CHECK(cudaFree(&host_value) == cudaErrorInvalidValue);
    CHECK(cudaFreeHost(&host_value) == cudaErrorInvalidValue);
    CHECK(cudaHostAlloc(&unset, 16, 0x80) == cudaErrorInvalidValue);
    CHECK(cudaMemcpy(device.get(), &host_value, sizeof host_value, cudaMemcpyKind(7)) ==
          cudaErrorInvalidMemcpyDirection);
    CHECK(cudaMemcpy(&host_value, &host_value, sizeof host_value, cudaMemcpyHostToDevice) ==
          cudaErrorInvalidValue);  // destination is not device memory
    CHECK(cudaMemcpy(device.get(), &host_value, 8192, cudaMemcpyHostToDevice) ==
          cudaErrorInvalidValue);  // past the end of the allocation
    CHECK(cudaMemset(&host_value, 0, sizeof host_value) == cudaErrorInvalidValue);
    CHECK(cudaMemcpy(device.get(), &host_value, SIZE_MAX, cudaMemcpyHostToDevice) ==
          cudaErrorInvalidValue);  // a size that would wrap around the address space
    CHECK(cudaLaunchKernel(nullptr, dim3(1), dim3(1), nullptr, 0, nullptr) ==
          cudaErrorInvalidDeviceFunction);
    CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(&kernel_a), dim3(0), dim3(1), nullptr, 0,
                           nullptr) == cudaErrorInvalidConfiguration);
    CHECK(cudaStreamSynchronize(kUnknownStream) == cudaErrorInvalidResourceHandle);
    CHECK(cudaStreamDestroy(kUnknownStream) == cudaErrorInvalidResourceHandle);
    CHECK(launch(&kernel_a, kUnknownStream) == cudaErrorInvalidResourceHandle);
    CHECK(cudaEventSynchronize(kUnknownEvent) == cudaErrorInvalidResourceHandle);
    CHECK(cudaEventRecord(kUnknownEvent) == cudaErrorInvalidResourceHandle);
    CHECK(cudaSetDevice(1) == cudaErrorInvalidDevice);
    CHECK(cudaSetDeviceFlags(0x3) == cudaErrorInvalidValue);
    CHECK(cudaStreamCreateWithFlags(nullptr, 0) == cudaErrorInvalidValue);
}

TEST_CASE("elapsed time needs two recorded, timed events") {
    cudaEvent_t timed = nullptr;
    cudaEvent_t untimed = nullptr;
    REQUIRE(cudaEventCreate(&timed) == cudaSuccess);
    REQUIRE(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming) == cudaSuccess);
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, timed, timed) == cudaErrorInvalidResourceHandle);
    REQUIRE(cudaEventRecord(timed) == cudaSuccess);
    REQUIRE(cudaEventRecord(untimed) == cudaSuccess);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    CHECK(cudaEventElapsedTime(&ms, timed, untimed) == cudaErrorInvalidResourceHandle);
    CHECK(cudaEventElapsedTime(&ms, timed, timed) == cudaSuccess);
    CHECK(ms == 0.0f);
    CHECK(cudaEventElapsedTime(nullptr, timed, timed) == cudaErrorInvalidValue);
    cudaEventDestroy(timed);
    cudaEventDestroy(untimed);
    CHECK(cudaEventDestroy(timed) == cudaErrorInvalidResourceHandle);
}

TEST_CASE("device memory is limited to FAKECUDA_DEVICE_MEMORY_MIB") {
    const fakecudaConfig config = fake_config();
    void* too_big = nullptr;
    CHECK(cudaMalloc(&too_big, config.device_memory_bytes + 1) == cudaErrorMemoryAllocation);
    CHECK(too_big == nullptr);
    CHECK(cudaMalloc(&too_big, SIZE_MAX) == cudaErrorMemoryAllocation);
    CHECK(cudaMallocHost(&too_big, SIZE_MAX) == cudaErrorMemoryAllocation);
}

TEST_CASE("the last error is the thread's latest failure until cudaGetLastError reads it") {
    cudaGetLastError();  // forget failures of earlier tests in this process
    CHECK(cudaGetLastError() == cudaSuccess);
    CHECK(cudaSetDevice(7) == cudaErrorInvalidDevice);
    CHECK(cudaPeekAtLastError() == cudaErrorInvalidDevice);
    CHECK(cudaGetLastError() == cudaErrorInvalidDevice);
    CHECK(cudaGetLastError() == cudaSuccess);
}

TEST_CASE("errors have the real names and readable descriptions") {
    CHECK(std::string(cudaGetErrorName(cudaErrorInvalidValue)) == "cudaErrorInvalidValue");
    CHECK(std::string(cudaGetErrorName(cudaErrorInsufficientDriver)) ==
          "cudaErrorInsufficientDriver");
    CHECK(std::string(cudaGetErrorString(cudaErrorMemoryAllocation)) == "out of memory");
    CHECK(std::string(cudaGetErrorString(static_cast<cudaError_t>(12345))) ==
          "unrecognized error code");
}

TEST_CASE("device queries describe one CUDA 13 device") {
    int count = 0;
    int device = -1;
    int runtime_version = 0;
    int driver_version = 0;
    unsigned flags = 1;
    void* pinned = nullptr;
    REQUIRE(cudaGetDeviceCount(&count) == cudaSuccess);
    REQUIRE(cudaSetDevice(0) == cudaSuccess);
    REQUIRE(cudaGetDevice(&device) == cudaSuccess);
    REQUIRE(cudaRuntimeGetVersion(&runtime_version) == cudaSuccess);
    REQUIRE(cudaDriverGetVersion(&driver_version) == cudaSuccess);
    REQUIRE(cudaHostAlloc(&pinned, 4096, cudaHostAllocPortable) == cudaSuccess);
    REQUIRE(cudaHostGetFlags(&flags, pinned) == cudaSuccess);
    CHECK(count == 1);
    CHECK(device == 0);
    CHECK(runtime_version == 13000);
    CHECK(driver_version == 13000);
    CHECK(flags == cudaHostAllocPortable);
    CHECK(cudaFreeHost(pinned) == cudaSuccess);
}
