// causeway-bench-call-loop: calls cudaStreamSynchronize on the idle default stream, the
// cheapest traced CUDA call, from one or more threads, as fast as possible or at a fixed total
// rate. Under a tracer the difference in ns per call is that tracer's cost per call; at a fixed
// rate it is the ingest benchmark's load. Prints one line of key=value results.
#include <cuda_runtime_api.h>

#include <CLI/CLI.hpp>
#include <barrier>
#include <cstdint>
#include <cstdio>
#include <thread>
#include <vector>

#include "bench/workloads/monotonic_clock.hpp"

namespace {

struct LoopOptions {
    std::int64_t calls_per_thread = 200'000;  // timed calls per thread (count)
    std::int64_t warmup_calls = 2'000;        // untimed calls per thread first (count)
    int threads = 1;
    double rate_per_s = 0;  // total calls per second; 0: as fast as possible
};

// Calls until `calls` are done, keeping to one call every `interval_ns` when it is positive.
// Returns the last return code (cudaErrorInsufficientDriver on the real runtime without a GPU
// is still a traced call).
int call_loop(std::int64_t calls, std::int64_t interval_ns) {
    int last = 0;
    std::int64_t next_ns = causeway::bench::monotonic_ns();
    for (std::int64_t i = 0; i < calls; ++i) {
        if (interval_ns > 0) {
            while (causeway::bench::monotonic_ns() < next_ns) {
            }
            next_ns += interval_ns;
        }
        last = cudaStreamSynchronize(nullptr);
    }
    return last;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"Call cudaStreamSynchronize in a loop and report ns per call"};
    LoopOptions options;
    app.add_option("--calls", options.calls_per_thread, "timed calls per thread")
        ->check(CLI::PositiveNumber);
    app.add_option("--warmup", options.warmup_calls, "untimed calls per thread first")
        ->check(CLI::NonNegativeNumber);
    app.add_option("--threads", options.threads, "calling threads")->check(CLI::Range(1, 64));
    app.add_option("--rate", options.rate_per_s, "total calls per second (0: unpaced)")
        ->check(CLI::NonNegativeNumber);
    CLI11_PARSE(app, argc, argv);

    const std::int64_t interval_ns =
        options.rate_per_s > 0
            ? static_cast<std::int64_t>(1e9 * options.threads / options.rate_per_s)
            : 0;
    std::barrier start(options.threads + 1);
    std::barrier stop(options.threads + 1);
    std::vector<int> last_codes(options.threads);
    std::vector<std::jthread> threads;
    for (int t = 0; t < options.threads; ++t) {
        threads.emplace_back([&, t] {
            call_loop(options.warmup_calls, 0);
            start.arrive_and_wait();
            last_codes[t] = call_loop(options.calls_per_thread, interval_ns);
            stop.arrive_and_wait();
        });
    }
    start.arrive_and_wait();
    const std::int64_t begin_ns = causeway::bench::monotonic_ns();
    stop.arrive_and_wait();
    const std::int64_t elapsed_ns = causeway::bench::monotonic_ns() - begin_ns;

    const double calls = static_cast<double>(options.calls_per_thread) * options.threads;
    std::printf(
        "threads=%d calls=%.0f elapsed_ns=%lld ns_per_call=%.1f calls_per_s=%.0f "
        "last_return=%d\n",
        options.threads, calls, static_cast<long long>(elapsed_ns),
        static_cast<double>(elapsed_ns) * options.threads / calls,
        calls * 1e9 / static_cast<double>(elapsed_ns), last_codes[0]);
    return 0;
}
