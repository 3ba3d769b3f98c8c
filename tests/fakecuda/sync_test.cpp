// Synchronisation waits the way CUDA does: by default the waiting thread spins, then yields, and
// stays runnable throughout (so CPU contention shows as preemption inside the call); blocking
// sync sleeps. cudaFree waits for pending device work.

#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "tests/fakecuda/fake_device.hpp"
#include "tests/fakecuda/thread_clock.hpp"

using namespace causeway::testing;

namespace {

// What the calling thread did while synchronising with a 100 ms kernel.
ThreadTimes wait_for_long_kernel() {
    REQUIRE(fakecudaSetKernelDuration(reinterpret_cast<const void*>(&kernel_a), 100_ms) ==
            cudaSuccess);
    REQUIRE(launch(&kernel_a) == cudaSuccess);
    return measure([] { REQUIRE(cudaStreamSynchronize(nullptr) == cudaSuccess); });
}

}  // namespace

TEST_CASE("by default a synchronising thread spins then yields, staying runnable") {
    const ThreadTimes wait = wait_for_long_kernel();
    INFO("wall " << wait.wall_ns / 1e6 << " ms, on CPU " << wait.cpu_ns / 1e6
                 << " ms, waiting for a CPU " << wait.run_queue_ns / 1e6 << " ms, slept "
                 << wait.sleeps << " times");
    CHECK(wait.wall_ns >= 90_ms);
    CHECK(wait.sleeps == 0);
}

TEST_CASE("cudaDeviceScheduleSpin and cudaDeviceScheduleYield keep the waiting thread runnable") {
    for (unsigned schedule : {cudaDeviceScheduleSpin, cudaDeviceScheduleYield}) {
        INFO("schedule flag " << schedule);
        REQUIRE(cudaSetDeviceFlags(schedule) == cudaSuccess);
        const ThreadTimes wait = wait_for_long_kernel();
        INFO("slept " << wait.sleeps << " times");
        CHECK(wait.wall_ns >= 90_ms);
        CHECK(wait.sleeps == 0);
    }
    REQUIRE(cudaSetDeviceFlags(cudaDeviceScheduleAuto) == cudaSuccess);
}

TEST_CASE("cudaDeviceScheduleBlockingSync makes a synchronising thread sleep") {
    REQUIRE(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync) == cudaSuccess);
    unsigned flags = 0;
    REQUIRE(cudaGetDeviceFlags(&flags) == cudaSuccess);
    CHECK((flags & cudaDeviceScheduleMask) == cudaDeviceScheduleBlockingSync);
    const ThreadTimes wait = wait_for_long_kernel();
    INFO("wall " << wait.wall_ns / 1e6 << " ms, on CPU " << wait.cpu_ns / 1e6 << " ms");
    CHECK(wait.wall_ns >= 90_ms);
    CHECK(wait.cpu_ns < 5_ms);
    CHECK(wait.sleeps >= 1);
    REQUIRE(cudaSetDeviceFlags(cudaDeviceScheduleAuto) == cudaSuccess);
}

TEST_CASE("an event created with cudaEventBlockingSync is waited for without CPU") {
    REQUIRE(fakecudaSetKernelDuration(reinterpret_cast<const void*>(&kernel_a), 100_ms) ==
            cudaSuccess);
    cudaEvent_t event = nullptr;
    REQUIRE(cudaEventCreateWithFlags(&event, cudaEventBlockingSync) == cudaSuccess);
    REQUIRE(launch(&kernel_a) == cudaSuccess);
    REQUIRE(cudaEventRecord(event) == cudaSuccess);
    const ThreadTimes wait = measure([&] { REQUIRE(cudaEventSynchronize(event) == cudaSuccess); });
    CHECK(wait.wall_ns >= 90_ms);
    CHECK(wait.cpu_ns < 5_ms);
    cudaEventDestroy(event);
}

TEST_CASE("cudaFree waits for all pending device work") {
    REQUIRE(fakecudaSetKernelDuration(reinterpret_cast<const void*>(&kernel_b), 80_ms) ==
            cudaSuccess);
    void* buffer = nullptr;
    REQUIRE(cudaMalloc(&buffer, 1 << 20) == cudaSuccess);
    cudaStream_t stream = nullptr;
    REQUIRE(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess);
    REQUIRE(launch(&kernel_b, stream) == cudaSuccess);
    const ThreadTimes free_call = measure([&] { REQUIRE(cudaFree(buffer) == cudaSuccess); });
    INFO("cudaFree took " << free_call.wall_ns / 1e6 << " ms");
    CHECK(free_call.wall_ns >= 75_ms);
    CHECK(cudaStreamQuery(stream) == cudaSuccess);
    cudaStreamDestroy(stream);
}

TEST_CASE("cudaMalloc costs FAKECUDA_MALLOC_NS of the calling thread's CPU") {
    const fakecudaConfig config = fake_config();
    constexpr int kAllocations = 200;
    void* buffers[kAllocations] = {};
    const ThreadTimes allocations = measure([&] {
        for (void*& buffer : buffers) {
            REQUIRE(cudaMalloc(&buffer, 4096) == cudaSuccess);
        }
    });
    CHECK(allocations.cpu_ns >= kAllocations * config.malloc_ns);
    for (void* buffer : buffers) {
        REQUIRE(cudaFree(buffer) == cudaSuccess);
    }
}

TEST_CASE("after fork, a child of an initialised process gets cudaErrorInitializationError") {
    void* buffer = nullptr;
    REQUIRE(cudaMalloc(&buffer, 4096) == cudaSuccess);
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        void* child_buffer = nullptr;
        _exit(cudaMalloc(&child_buffer, 4096) == cudaErrorInitializationError ? 0 : 1);
    }
    int status = 0;
    REQUIRE(waitpid(child, &status, 0) == child);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    CHECK(cudaFree(buffer) == cudaSuccess);  // the parent keeps working
}
