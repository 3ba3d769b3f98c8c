// The fake device's timings behave as configured. Host-observed times have a hard floor (the
// modeled time: the device sleeps until its deadline) and a ceiling loose enough for a loaded
// 2-core VM; device-side times read through events are exact.

#include <catch2/catch.hpp>
#include <cstring>
#include <vector>

#include "tests/fakecuda/fake_device.hpp"
#include "tests/fakecuda/thread_clock.hpp"

using namespace causeway::testing;

namespace {

// A host observation of modeled time `expected_ns`: never shorter; once the time the threads
// involved waited for a CPU is taken out, at most 20% + 5 ms longer.
void check_takes_about(const ThreadTimes& measured, std::uint64_t expected_ns) {
    INFO("measured " << measured.wall_ns / 1e6 << " ms, of which "
                     << (measured.wall_ns - measured.wall_ns_without_cpu_waits()) / 1e6
                     << " ms waiting for a CPU; modeled " << expected_ns / 1e6 << " ms");
    CHECK(measured.wall_ns >= expected_ns);
    CHECK(measured.wall_ns_without_cpu_waits() <= expected_ns + expected_ns / 5 + 5_ms);
}

// Device time between two events, in ns.
double elapsed_ns(cudaEvent_t start, cudaEvent_t end) {
    float ms = 0;
    REQUIRE(cudaEventElapsedTime(&ms, start, end) == cudaSuccess);
    return static_cast<double>(ms) * 1e6;
}

// No test registers a duration for it.
void unregistered_kernel(int* out) {
    *out = 3;
}

}  // namespace

TEST_CASE("a pinned copy of X bytes at Y GB/s takes latency + X/Y") {
    const fakecudaConfig config = fake_config();
    const std::size_t bytes = 480u << 20;  // 21 ms at the default 24 GB/s
    PinnedBuffer host(bytes);
    DeviceBuffer device(bytes);
    const std::uint64_t expected_ns = modeled_copy_ns(config, bytes, config.pinned_gbps);

    SECTION("as the host sees it") {
        const ThreadTimes copy = measure([&] {
            REQUIRE(cudaMemcpy(device.get(), host.get(), bytes, cudaMemcpyHostToDevice) ==
                    cudaSuccess);
        });
        check_takes_about(copy, expected_ns);
    }
    SECTION("as the device's events see it") {
        cudaEvent_t start = nullptr;
        cudaEvent_t end = nullptr;
        REQUIRE(cudaEventCreate(&start) == cudaSuccess);
        REQUIRE(cudaEventCreate(&end) == cudaSuccess);
        keep_device_busy(100_ms);
        REQUIRE(cudaEventRecord(start) == cudaSuccess);
        REQUIRE(cudaMemcpyAsync(device.get(), host.get(), bytes, cudaMemcpyHostToDevice) ==
                cudaSuccess);
        REQUIRE(cudaEventRecord(end) == cudaSuccess);
        REQUIRE(cudaEventSynchronize(end) == cudaSuccess);
        CHECK(elapsed_ns(start, end) == Approx(static_cast<double>(expected_ns)).epsilon(0.001));
        cudaEventDestroy(start);
        cudaEventDestroy(end);
    }
}

TEST_CASE("a device-to-host pinned copy is timed like host-to-device") {
    const fakecudaConfig config = fake_config();
    const std::size_t bytes = 480u << 20;
    PinnedBuffer host(bytes);
    DeviceBuffer device(bytes);
    const ThreadTimes copy = measure([&] {
        REQUIRE(cudaMemcpy(host.get(), device.get(), bytes, cudaMemcpyDeviceToHost) == cudaSuccess);
    });
    check_takes_about(copy, modeled_copy_ns(config, bytes, config.pinned_gbps));
}

TEST_CASE("a pageable copy is slower than a pinned one and costs the calling thread CPU") {
    const fakecudaConfig config = fake_config();
    REQUIRE(config.pageable_gbps < config.pinned_gbps);
    // Blocking waits, so that the CPU the calling thread uses is the staging work alone.
    REQUIRE(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync) == cudaSuccess);
    const std::size_t bytes = 256u << 20;  // pinned 11 ms, pageable DMA 34 ms at the defaults
    std::vector<unsigned char> pageable(bytes, 0x5A);  // touched: staging reads real pages
    PinnedBuffer pinned(bytes);
    DeviceBuffer device(bytes);

    const ThreadTimes pinned_copy = measure([&] {
        REQUIRE(cudaMemcpy(device.get(), pinned.get(), bytes, cudaMemcpyHostToDevice) ==
                cudaSuccess);
    });
    const ThreadTimes pageable_copy = measure([&] {
        REQUIRE(cudaMemcpy(device.get(), pageable.data(), bytes, cudaMemcpyHostToDevice) ==
                cudaSuccess);
    });
    INFO("pinned: " << pinned_copy.wall_ns / 1e6 << " ms wall, " << pinned_copy.cpu_ns / 1e6
                    << " ms CPU; pageable: " << pageable_copy.wall_ns / 1e6 << " ms wall, "
                    << pageable_copy.cpu_ns / 1e6 << " ms CPU");
    const std::uint64_t pageable_dma_ns = modeled_copy_ns(config, bytes, config.pageable_gbps);
    CHECK(pageable_copy.wall_ns >= pageable_dma_ns);
    // The whole pinned copy ends before the pageable DMA alone would.
    CHECK(pinned_copy.wall_ns_without_cpu_waits() < pageable_dma_ns);
    // Staging 256 MiB is a real memcpy on the calling thread; the pinned copy only waits.
    CHECK(pageable_copy.cpu_ns > 5_ms);
    CHECK(pinned_copy.cpu_ns < pageable_copy.cpu_ns / 4);
    REQUIRE(cudaSetDeviceFlags(cudaDeviceScheduleAuto) == cudaSuccess);
}

TEST_CASE("a pageable cudaMemcpyAsync to the device returns once staged, before the DMA ends") {
    const fakecudaConfig config = fake_config();
    const std::size_t bytes = 16u << 20;  // staged in a few ms
    std::vector<unsigned char> pageable(bytes, 0x5A);
    DeviceBuffer device(bytes);
    cudaStream_t stream = nullptr;
    REQUIRE(cudaStreamCreate(&stream) == cudaSuccess);
    // Queue a long kernel first: the copy's DMA cannot even start before it ends.
    REQUIRE(fakecudaSetKernelDuration(reinterpret_cast<const void*>(&kernel_a), 300_ms) ==
            cudaSuccess);
    std::uint64_t call_ns = 0;
    const ThreadTimes whole = measure([&] {
        REQUIRE(launch(&kernel_a, stream) == cudaSuccess);
        call_ns = measure([&] {
                      REQUIRE(cudaMemcpyAsync(device.get(), pageable.data(), bytes,
                                              cudaMemcpyHostToDevice, stream) == cudaSuccess);
                  }).wall_ns_without_cpu_waits();
        CHECK(cudaStreamQuery(stream) == cudaErrorNotReady);
        REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
    });
    INFO("cudaMemcpyAsync took " << call_ns / 1e6 << " ms");
    CHECK(call_ns < 200_ms);
    CHECK(whole.wall_ns >= 300_ms + modeled_copy_ns(config, bytes, config.pageable_gbps));
    cudaStreamDestroy(stream);
}

TEST_CASE("a kernel takes the duration registered for its function") {
    REQUIRE(fakecudaSetKernelDuration(reinterpret_cast<const void*>(&kernel_a), 30_ms) ==
            cudaSuccess);
    REQUIRE(fakecudaSetKernelDuration(reinterpret_cast<const void*>(&kernel_b), 5_ms) ==
            cudaSuccess);
    cudaEvent_t start = nullptr;
    cudaEvent_t middle = nullptr;
    cudaEvent_t end = nullptr;
    REQUIRE(cudaEventCreate(&start) == cudaSuccess);
    REQUIRE(cudaEventCreate(&middle) == cudaSuccess);
    REQUIRE(cudaEventCreate(&end) == cudaSuccess);

    const ThreadTimes run = measure([&] {
        keep_device_busy(100_ms);
        REQUIRE(cudaEventRecord(start) == cudaSuccess);
        REQUIRE(launch(&kernel_a) == cudaSuccess);
        REQUIRE(cudaEventRecord(middle) == cudaSuccess);
        REQUIRE(launch(&kernel_b) == cudaSuccess);
        REQUIRE(cudaEventRecord(end) == cudaSuccess);
        REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    });
    check_takes_about(run, 135_ms);
    CHECK(elapsed_ns(start, middle) == Approx(30e6).margin(1e3));
    CHECK(elapsed_ns(middle, end) == Approx(5e6).margin(1e3));
    for (cudaEvent_t event : {start, middle, end}) {
        cudaEventDestroy(event);
    }
}

TEST_CASE("a kernel with no registered duration takes FAKECUDA_KERNEL_NS") {
    const fakecudaConfig config = fake_config();
    constexpr int kLaunches = 100;
    cudaEvent_t start = nullptr;
    cudaEvent_t end = nullptr;
    REQUIRE(cudaEventCreate(&start) == cudaSuccess);
    REQUIRE(cudaEventCreate(&end) == cudaSuccess);
    keep_device_busy(100_ms);
    REQUIRE(cudaEventRecord(start) == cudaSuccess);
    for (int i = 0; i < kLaunches; ++i) {
        REQUIRE(launch(&unregistered_kernel) == cudaSuccess);
    }
    REQUIRE(cudaEventRecord(end) == cudaSuccess);
    REQUIRE(cudaEventSynchronize(end) == cudaSuccess);
    CHECK(elapsed_ns(start, end) ==
          Approx(static_cast<double>(kLaunches * config.kernel_ns)).margin(1e3));
    cudaEventDestroy(start);
    cudaEventDestroy(end);
}

TEST_CASE("queued kernels run back to back: wake-up delays of the device do not accumulate") {
    REQUIRE(fakecudaSetKernelDuration(reinterpret_cast<const void*>(&kernel_a), 1_ms) ==
            cudaSuccess);
    const ThreadTimes run = measure([&] {
        for (int i = 0; i < 200; ++i) {
            REQUIRE(launch(&kernel_a) == cudaSuccess);
        }
        REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    });
    INFO("200 x 1 ms took " << run.wall_ns / 1e6 << " ms");
    CHECK(run.wall_ns >= 200_ms);
    CHECK(run.wall_ns_without_cpu_waits() <= 215_ms);
}

TEST_CASE("a kernel launch costs FAKECUDA_LAUNCH_NS of the calling thread's CPU") {
    const fakecudaConfig config = fake_config();
    REQUIRE(fakecudaSetKernelDuration(reinterpret_cast<const void*>(&kernel_a), 0) == cudaSuccess);
    constexpr int kLaunches = 2000;
    const ThreadTimes launches = measure([&] {
        for (int i = 0; i < kLaunches; ++i) {
            REQUIRE(launch(&kernel_a) == cudaSuccess);
        }
    });
    CHECK(launches.cpu_ns >= kLaunches * config.launch_ns);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
}
