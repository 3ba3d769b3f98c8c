// fakecuda_probe: prints the fake runtime's effective configuration and a few measured timings,
// one `<name> <value>` per line, so tests can check that FAKECUDA_* variables set in the
// environment of a fresh process are honoured (they are read when the library is loaded).

#include <cuda_runtime_api.h>
#include <fakecuda.h>
#include <time.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace {

constexpr std::size_t kCopyBytes = 1 << 20;

std::uint64_t now_ns() {
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    return static_cast<std::uint64_t>(now.tv_sec) * 1'000'000'000ULL +
           static_cast<std::uint64_t>(now.tv_nsec);
}

void default_kernel() {}

int report_failure(const char* call, cudaError_t error) {
    std::printf("%s %d\n", call, static_cast<int>(error));
    return 1;
}

}  // namespace

int main() {
    fakecudaConfig config{};
    const int status = fakecudaGetConfig(&config);
    std::printf("config_status %d\n", status);
    std::printf("pinned_gbps %g\npageable_gbps %g\ndevice_gbps %g\n", config.pinned_gbps,
                config.pageable_gbps, config.device_gbps);
    std::printf("copy_latency_ns %llu\nkernel_ns %llu\nlaunch_ns %llu\nmalloc_ns %llu\n",
                config.copy_latency_ns, config.kernel_ns, config.launch_ns, config.malloc_ns);
    std::printf("host_alloc_ns %llu\nsync_spin_ns %llu\ndevice_memory_bytes %llu\n",
                config.host_alloc_ns, config.sync_spin_ns, config.device_memory_bytes);
    std::printf("move_bytes %d\n", config.move_bytes);

    void* device = nullptr;
    void* pinned = nullptr;
    if (cudaError_t error = cudaMalloc(&device, kCopyBytes); error != cudaSuccess) {
        return report_failure("cudaMalloc", error);
    }
    if (cudaError_t error = cudaMallocHost(&pinned, kCopyBytes); error != cudaSuccess) {
        return report_failure("cudaMallocHost", error);
    }
    std::uint64_t start_ns = now_ns();
    cudaMemcpy(device, pinned, kCopyBytes, cudaMemcpyHostToDevice);
    std::printf("pinned_copy_1mib_ns %llu\n", static_cast<unsigned long long>(now_ns() - start_ns));

    start_ns = now_ns();
    cudaLaunchKernel(reinterpret_cast<const void*>(&default_kernel), dim3(1), dim3(1), nullptr, 0,
                     nullptr);
    cudaDeviceSynchronize();
    std::printf("default_kernel_ns %llu\n", static_cast<unsigned long long>(now_ns() - start_ns));

    // A round trip through device memory: the bytes come back only when device work moves them.
    std::memset(pinned, 0xAB, kCopyBytes);
    cudaMemcpy(device, pinned, kCopyBytes, cudaMemcpyHostToDevice);
    std::memset(pinned, 0, kCopyBytes);
    cudaMemcpy(pinned, device, kCopyBytes, cudaMemcpyDeviceToHost);
    std::printf("round_trip_byte 0x%02x\n", static_cast<unsigned char*>(pinned)[kCopyBytes - 1]);
    cudaFreeHost(pinned);
    cudaFree(device);
    return 0;
}
