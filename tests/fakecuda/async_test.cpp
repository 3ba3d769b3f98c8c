// Device work is asynchronous: the host keeps running while a kernel runs, streams run
// concurrently, and the legacy default stream orders work as on real CUDA.

#include <catch2/catch.hpp>
#include <chrono>
#include <functional>
#include <thread>

#include "tests/fakecuda/fake_device.hpp"
#include "tests/fakecuda/thread_clock.hpp"

using namespace causeway::testing;

namespace {

class Stream {
  public:
    explicit Stream(unsigned flags = cudaStreamDefault) {
        REQUIRE(cudaStreamCreateWithFlags(&stream_, flags) == cudaSuccess);
    }
    ~Stream() { cudaStreamDestroy(stream_); }
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    cudaStream_t get() const { return stream_; }

  private:
    cudaStream_t stream_ = nullptr;
};

std::uint64_t monotonic_ns() {
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                          std::chrono::steady_clock::now().time_since_epoch())
                                          .count());
}

void set_duration(void (*kernel)(int*), std::uint64_t ns) {
    REQUIRE(fakecudaSetKernelDuration(reinterpret_cast<const void*>(kernel), ns) == cudaSuccess);
}

}  // namespace

TEST_CASE("host work overlaps an asynchronous kernel") {
    set_duration(&kernel_a, 100_ms);
    std::uint64_t launch_ns = 0;
    const ThreadTimes step = measure([&] {
        launch_ns =
            measure([] { REQUIRE(launch(&kernel_a) == cudaSuccess); }).wall_ns_without_cpu_waits();
        busy_host_work(60_ms);
        REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    });
    INFO("launch " << launch_ns / 1e6 << " ms, step " << step.wall_ns / 1e6 << " ms");
    CHECK(launch_ns < 30_ms);
    CHECK(step.wall_ns >= 100_ms);
    CHECK(step.wall_ns_without_cpu_waits() < 140_ms);  // serial would be 160 ms
}

TEST_CASE("kernels on two streams run concurrently") {
    set_duration(&kernel_a, 100_ms);
    Stream first(cudaStreamNonBlocking);
    Stream second(cudaStreamNonBlocking);
    const ThreadTimes both = measure([&] {
        REQUIRE(launch(&kernel_a, first.get()) == cudaSuccess);
        REQUIRE(launch(&kernel_a, second.get()) == cudaSuccess);
        REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    });
    INFO("two 100 ms kernels took " << both.wall_ns / 1e6 << " ms");
    CHECK(both.wall_ns >= 100_ms);
    CHECK(both.wall_ns_without_cpu_waits() < 160_ms);  // serial would be 200 ms
}

TEST_CASE("work on one stream runs in order") {
    set_duration(&kernel_a, 20_ms);
    Stream stream;
    const ThreadTimes run = measure([&] {
        for (int i = 0; i < 3; ++i) {
            REQUIRE(launch(&kernel_a, stream.get()) == cudaSuccess);
        }
        REQUIRE(cudaStreamSynchronize(stream.get()) == cudaSuccess);
    });
    CHECK(run.wall_ns >= 60_ms);
    CHECK(run.wall_ns_without_cpu_waits() < 100_ms);
}

TEST_CASE("the legacy default stream waits for blocking streams, not for non-blocking ones") {
    set_duration(&kernel_a, 100_ms);
    set_duration(&kernel_b, 10_ms);
    SECTION("blocking stream") {
        Stream blocking(cudaStreamDefault);
        const ThreadTimes run = measure([&] {
            REQUIRE(launch(&kernel_a, blocking.get()) == cudaSuccess);
            REQUIRE(launch(&kernel_b) == cudaSuccess);
            REQUIRE(cudaStreamSynchronize(nullptr) == cudaSuccess);
        });
        CHECK(run.wall_ns >= 110_ms);
    }
    SECTION("non-blocking stream") {
        Stream non_blocking(cudaStreamNonBlocking);
        const ThreadTimes run = measure([&] {
            REQUIRE(launch(&kernel_a, non_blocking.get()) == cudaSuccess);
            REQUIRE(launch(&kernel_b) == cudaSuccess);
            REQUIRE(cudaStreamSynchronize(nullptr) == cudaSuccess);
        });
        CHECK(run.wall_ns >= 10_ms);
        CHECK(run.wall_ns_without_cpu_waits() < 80_ms);
        REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    }
}

TEST_CASE("each host thread's cudaStreamPerThread is its own stream") {
    set_duration(&kernel_a, 100_ms);
    // Catch2 assertions are not thread-safe: the threads report, the test thread checks.
    struct Worker {
        cudaError_t launched = cudaErrorUnknown;
        cudaError_t synchronised = cudaErrorUnknown;
        ThreadTimes times;
    };
    auto train = [](Worker& worker) {
        worker.times = measure([&] {
            worker.launched = launch(&kernel_a, cudaStreamPerThread);
            worker.synchronised = cudaStreamSynchronize(cudaStreamPerThread);
        });
    };
    Worker workers[2];
    std::thread first(train, std::ref(workers[0]));
    std::thread second(train, std::ref(workers[1]));
    first.join();
    second.join();
    for (const Worker& worker : workers) {
        INFO("a thread's 100 ms kernel took " << worker.times.wall_ns / 1e6 << " ms");
        CHECK(worker.launched == cudaSuccess);
        CHECK(worker.synchronised == cudaSuccess);
        CHECK(worker.times.wall_ns >= 100_ms);
        // Behind the other thread's kernel on a shared stream, one would take 200 ms.
        CHECK(worker.times.wall_ns_without_cpu_waits() < 160_ms);
    }
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
}

TEST_CASE("cudaStreamPerThread waits for earlier work on the legacy default stream") {
    set_duration(&kernel_a, 50_ms);
    const ThreadTimes run = measure([&] {
        REQUIRE(launch(&kernel_a, cudaStreamLegacy) == cudaSuccess);
        REQUIRE(launch(&kernel_a, cudaStreamPerThread) == cudaSuccess);
        REQUIRE(cudaStreamSynchronize(cudaStreamPerThread) == cudaSuccess);
    });
    CHECK(run.wall_ns >= 100_ms);
}

TEST_CASE("a blocking stream waits for earlier work on the legacy default stream") {
    set_duration(&kernel_a, 50_ms);
    set_duration(&kernel_b, 10_ms);
    Stream blocking(cudaStreamDefault);
    const ThreadTimes run = measure([&] {
        REQUIRE(launch(&kernel_a) == cudaSuccess);
        REQUIRE(launch(&kernel_b, blocking.get()) == cudaSuccess);
        REQUIRE(cudaStreamSynchronize(blocking.get()) == cudaSuccess);
    });
    CHECK(run.wall_ns >= 60_ms);
}

TEST_CASE("queries report unfinished work as cudaErrorNotReady without making it an error") {
    set_duration(&kernel_a, 40_ms);
    Stream stream;
    cudaEvent_t done = nullptr;
    REQUIRE(cudaEventCreate(&done) == cudaSuccess);
    REQUIRE(launch(&kernel_a, stream.get()) == cudaSuccess);
    REQUIRE(cudaEventRecord(done, stream.get()) == cudaSuccess);
    CHECK(cudaStreamQuery(stream.get()) == cudaErrorNotReady);
    CHECK(cudaEventQuery(done) == cudaErrorNotReady);
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, done, done) == cudaErrorNotReady);
    CHECK(cudaGetLastError() == cudaSuccess);
    REQUIRE(cudaEventSynchronize(done) == cudaSuccess);
    CHECK(cudaStreamQuery(stream.get()) == cudaSuccess);
    CHECK(cudaEventQuery(done) == cudaSuccess);
    cudaEventDestroy(done);
}

TEST_CASE("cudaStreamWaitEvent makes a stream wait for another stream's event") {
    set_duration(&kernel_a, 50_ms);
    set_duration(&kernel_b, 10_ms);
    Stream producer(cudaStreamNonBlocking);
    Stream consumer(cudaStreamNonBlocking);
    cudaEvent_t produced = nullptr;
    REQUIRE(cudaEventCreate(&produced) == cudaSuccess);
    const ThreadTimes run = measure([&] {
        REQUIRE(launch(&kernel_a, producer.get()) == cudaSuccess);
        REQUIRE(cudaEventRecord(produced, producer.get()) == cudaSuccess);
        REQUIRE(cudaStreamWaitEvent(consumer.get(), produced, 0) == cudaSuccess);
        REQUIRE(launch(&kernel_b, consumer.get()) == cudaSuccess);
        REQUIRE(cudaStreamSynchronize(consumer.get()) == cudaSuccess);
    });
    CHECK(run.wall_ns >= 60_ms);
    cudaEventDestroy(produced);
}

TEST_CASE("streams and their events can be destroyed right after use, again and again") {
    // Regression: the last reference to a destroyed stream could be dropped by its own device
    // thread (through the event record it had just stamped), which then tried to join itself.
    for (int round = 0; round < 1000; ++round) {
        cudaStream_t stream = nullptr;
        cudaEvent_t event = nullptr;
        REQUIRE(cudaStreamCreate(&stream) == cudaSuccess);
        REQUIRE(cudaEventCreate(&event) == cudaSuccess);
        REQUIRE(cudaEventRecord(event, stream) == cudaSuccess);
        REQUIRE(cudaEventSynchronize(event) == cudaSuccess);
        REQUIRE(cudaEventDestroy(event) == cudaSuccess);
        REQUIRE(cudaStreamDestroy(stream) == cudaSuccess);
    }
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
}

// A host function (cudaLaunchHostFunc) runs after the stream's earlier work and holds the stream
// while it runs: later work waits for it, and so does a synchronisation.
TEST_CASE("a host function runs in stream order and holds the stream while it blocks") {
    set_duration(&kernel_a, 30_ms);
    Stream stream(cudaStreamNonBlocking);
    struct Seen {
        std::uint64_t started_ns = 0;
        std::uint64_t launched_ns = 0;
    } seen;
    auto host_function = [](void* data) {
        static_cast<Seen*>(data)->started_ns = monotonic_ns();
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    };
    const ThreadTimes step = measure([&] {
        seen.launched_ns = monotonic_ns();
        REQUIRE(launch(&kernel_a, stream.get()) == cudaSuccess);
        REQUIRE(cudaLaunchHostFunc(stream.get(), host_function, &seen) == cudaSuccess);
        REQUIRE(launch(&kernel_a, stream.get()) == cudaSuccess);
        REQUIRE(cudaStreamSynchronize(stream.get()) == cudaSuccess);
    });
    INFO("host function started " << (seen.started_ns - seen.launched_ns) / 1e6
                                  << " ms after the launch; the step took " << step.wall_ns / 1e6
                                  << " ms");
    CHECK(seen.started_ns >= seen.launched_ns + 30_ms);  // after the first kernel
    CHECK(step.wall_ns >= 110_ms);                       // 30 + 50 + 30, in order
    CHECK(cudaLaunchHostFunc(stream.get(), nullptr, nullptr) == cudaErrorInvalidValue);
}
