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
                   }).wall_ns_without_cpu_waits();
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
    CHECK(destroy.wall_ns_without_cpu_waits() < 30_ms);
    CHECK(cudaStreamQuery(stream) == cudaErrorInvalidResourceHandle);
    const ThreadTimes rest = measure([] { REQUIRE(cudaDeviceSynchronize() == cudaSuccess); });
    CHECK(destroy.wall_ns + rest.wall_ns >= 55_ms);
    cudaGetLastError();
}

TEST_CASE("copies in one direction share a copy engine, opposite directions overlap") {
    const fakecudaConfig config = fake_config();
    const std::size_t bytes = 240u << 20;  // 10 ms pinned at the default 24 GB/s
    const double copy_ns = static_cast<double>(modeled_copy_ns(config, bytes, config.pinned_gbps));
    PinnedBuffer host_a(bytes);
    PinnedBuffer host_b(bytes);
    DeviceBuffer device_a(bytes);
    DeviceBuffer device_b(bytes);
    cudaStream_t first = nullptr;
    cudaStream_t second = nullptr;
    REQUIRE(cudaStreamCreate(&first) == cudaSuccess);
    REQUIRE(cudaStreamCreate(&second) == cudaSuccess);
    cudaEvent_t start = nullptr;
    cudaEvent_t first_done = nullptr;
    cudaEvent_t second_done = nullptr;
    for (cudaEvent_t* event : {&start, &first_done, &second_done}) {
        REQUIRE(cudaEventCreate(event) == cudaSuccess);
    }
    // Both (blocking) streams wait for the legacy stream's pacing kernel and start event, so the
    // two copies become ready at the same device time.
    auto run_copies = [&](cudaMemcpyKind second_kind) {
        keep_device_busy(100_ms);
        REQUIRE(cudaEventRecord(start) == cudaSuccess);
        REQUIRE(cudaMemcpyAsync(device_a.get(), host_a.get(), bytes, cudaMemcpyHostToDevice,
                                first) == cudaSuccess);
        if (second_kind == cudaMemcpyHostToDevice) {
            REQUIRE(cudaMemcpyAsync(device_b.get(), host_b.get(), bytes, second_kind, second) ==
                    cudaSuccess);
        } else {
            REQUIRE(cudaMemcpyAsync(host_b.get(), device_b.get(), bytes, second_kind, second) ==
                    cudaSuccess);
        }
        REQUIRE(cudaEventRecord(first_done, first) == cudaSuccess);
        REQUIRE(cudaEventRecord(second_done, second) == cudaSuccess);
        REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
        float first_ms = 0;
        float second_ms = 0;
        REQUIRE(cudaEventElapsedTime(&first_ms, start, first_done) == cudaSuccess);
        REQUIRE(cudaEventElapsedTime(&second_ms, start, second_done) == cudaSuccess);
        return std::max(first_ms, second_ms) * 1e6;
    };
    CHECK(run_copies(cudaMemcpyHostToDevice) == Approx(2 * copy_ns).margin(1e3));
    CHECK(run_copies(cudaMemcpyDeviceToHost) == Approx(copy_ns).margin(1e3));
    for (cudaEvent_t event : {start, first_done, second_done}) {
        cudaEventDestroy(event);
    }
    cudaStreamDestroy(first);
    cudaStreamDestroy(second);
}
