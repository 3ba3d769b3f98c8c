// Stream-ordered allocation, memsets, device-to-device and direction-inferred copies.

#include <catch2/catch.hpp>

#include "tests/fakecuda/fake_device.hpp"
#include "tests/fakecuda/thread_clock.hpp"

using namespace causeway::testing;

TEST_CASE("cudaFreeAsync releases the memory when the stream reaches it") {
    cudaStream_t stream = nullptr;
    REQUIRE(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess);
    void* buffer = nullptr;
    REQUIRE(cudaMallocAsync(&buffer, 1 << 20, stream) == cudaSuccess);
    REQUIRE(buffer != nullptr);
    keep_device_busy(50_ms, stream);
    REQUIRE(cudaFreeAsync(buffer, stream) == cudaSuccess);
    CHECK(cudaStreamQuery(stream) == cudaErrorNotReady);
    REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
    CHECK(cudaFree(buffer) == cudaErrorInvalidValue);  // already released by the stream
    CHECK(cudaFreeAsync(buffer, stream) == cudaErrorInvalidValue);
    cudaGetLastError();
    cudaStreamDestroy(stream);
}

TEST_CASE(
    "memsets and device-to-device copies are asynchronous and take bytes / device bandwidth") {
    const fakecudaConfig config = fake_config();
    const std::size_t half = std::size_t{7} << 30;  // 7.5 ms at the default 1000 GB/s
    REQUIRE(config.device_memory_bytes >= 2 * half);
    DeviceBuffer buffer(2 * half);
    auto* first_half = static_cast<unsigned char*>(buffer.get());
    std::uint64_t calls_ns = 0;
    const ThreadTimes run = measure([&] {
        calls_ns = measure([&] {
                       for (int i = 0; i < 3; ++i) {
                           REQUIRE(cudaMemset(buffer.get(), i, 2 * half) == cudaSuccess);
                       }
                       REQUIRE(cudaMemcpy(first_half + half, first_half, half,
                                          cudaMemcpyDeviceToDevice) == cudaSuccess);
                   }).wall_ns;
        REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    });
    const std::uint64_t device_ns = 3 * modeled_copy_ns(config, 2 * half, config.device_gbps) +
                                    modeled_copy_ns(config, half, config.device_gbps);
    INFO("calls " << calls_ns / 1e6 << " ms, until done " << run.wall_ns / 1e6 << " ms");
    CHECK(calls_ns < device_ns / 2);
    CHECK(run.wall_ns >= device_ns);
}

TEST_CASE("cudaMemcpyDefault infers the direction from the pointers") {
    const fakecudaConfig config = fake_config();
    const std::size_t bytes = 240u << 20;  // 10 ms pinned
    PinnedBuffer host(bytes);
    DeviceBuffer device(bytes);
    const ThreadTimes to_device = measure([&] {
        REQUIRE(cudaMemcpy(device.get(), host.get(), bytes, cudaMemcpyDefault) == cudaSuccess);
    });
    const ThreadTimes to_host = measure([&] {
        REQUIRE(cudaMemcpy(host.get(), device.get(), bytes, cudaMemcpyDefault) == cudaSuccess);
    });
    CHECK(to_device.wall_ns >= modeled_copy_ns(config, bytes, config.pinned_gbps));
    CHECK(to_host.wall_ns >= modeled_copy_ns(config, bytes, config.pinned_gbps));
    int from = 7;
    int to = 0;
    REQUIRE(cudaMemcpy(&to, &from, sizeof from, cudaMemcpyDefault) == cudaSuccess);
    CHECK(to == 7);  // host to host: a plain copy on the calling thread
}

TEST_CASE("a destroyed stream finishes its queued work in the background") {
    cudaStream_t stream = nullptr;
    REQUIRE(cudaStreamCreate(&stream) == cudaSuccess);
    keep_device_busy(60_ms, stream);
    const ThreadTimes destroy = measure([&] { REQUIRE(cudaStreamDestroy(stream) == cudaSuccess); });
    CHECK(destroy.wall_ns < 30_ms);
    CHECK(cudaStreamQuery(stream) == cudaErrorInvalidResourceHandle);
    const ThreadTimes rest = measure([] { REQUIRE(cudaDeviceSynchronize() == cudaSuccess); });
    CHECK(destroy.wall_ns + rest.wall_ns >= 55_ms);
    cudaGetLastError();
}
