// causeway-bench-call-loop: calls cudaEventSynchronize on an event that was never recorded (it
// returns at once, and the runtime reaches no traced driver function on the way, so one call is
// one uprobe + uretprobe hit) from one or more threads, as fast as possible or at a fixed total
// rate. Under a tracer the difference in ns per call is that tracer's cost per call; at a fixed
// rate it is the ingest benchmark's load. Prints one line of key=value results.
#include <cuda_runtime_api.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <latch>
#include <thread>
#include <vector>

#include "bench/clocks.hpp"

namespace {

struct LoopOptions {
    std::int64_t calls_per_thread = 200'000;  // timed calls per thread (count)
    std::int64_t warmup_calls = 2'000;        // untimed calls per thread first (count)
    int threads = 1;
    double rate_per_s = 0;  // total calls per second; 0: as fast as possible
};

// Calls until `calls` are done, keeping to one call every `interval_ns` when it is positive.
// Returns the last return code.
int call_loop(cudaEvent_t event, std::int64_t calls, std::int64_t interval_ns) {
    int last = 0;
    std::int64_t next_ns = causeway::bench::monotonic_ns();
    for (std::int64_t i = 0; i < calls; ++i) {
        if (interval_ns > 0) {
            while (causeway::bench::monotonic_ns() < next_ns) {
            }
            next_ns += interval_ns;
        }
        last = cudaEventSynchronize(event);
    }
    return last;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"Call cudaEventSynchronize in a loop and report ns per call"};
    LoopOptions options;
    app.add_option("--calls", options.calls_per_thread, "timed calls per thread")
        ->check(CLI::PositiveNumber);
    app.add_option("--warmup", options.warmup_calls, "untimed calls per thread first")
        ->check(CLI::NonNegativeNumber);
    app.add_option("--threads", options.threads, "calling threads")->check(CLI::Range(1, 64));
    app.add_option("--rate", options.rate_per_s, "total calls per second (0: unpaced)")
        ->check(CLI::NonNegativeNumber);
    CLI11_PARSE(app, argc, argv);

    cudaEvent_t event = nullptr;
    if (cudaError_t created = cudaEventCreate(&event); created != cudaSuccess) {
        std::fprintf(stderr, "causeway-bench-call-loop: cudaEventCreate failed with error %d\n",
                     static_cast<int>(created));
        return 1;
    }

    const std::int64_t interval_ns =
        options.rate_per_s > 0
            ? static_cast<std::int64_t>(1e9 * options.threads / options.rate_per_s)
            : 0;
    // Every thread warms up, then all start together; the run lasts from the first timed call
    // to the last return.
    std::latch warmed_up(options.threads);
    std::vector<std::int64_t> begin_ns(options.threads);
    std::vector<std::int64_t> end_ns(options.threads);
    std::vector<std::int64_t> cpu_ns(options.threads);  // each thread's CPU time in its loop
    std::vector<int> last_codes(options.threads);
    {
        std::vector<std::jthread> threads;
        for (int t = 0; t < options.threads; ++t) {
            threads.emplace_back([&, t] {
                call_loop(event, options.warmup_calls, 0);
                warmed_up.arrive_and_wait();
                begin_ns[t] = causeway::bench::monotonic_ns();
                const std::int64_t cpu_begin_ns = causeway::bench::thread_cpu_ns();
                last_codes[t] = call_loop(event, options.calls_per_thread, interval_ns);
                end_ns[t] = causeway::bench::monotonic_ns();
                cpu_ns[t] = causeway::bench::thread_cpu_ns() - cpu_begin_ns;
            });
        }
    }  // joins
    const std::int64_t elapsed_ns = *std::max_element(end_ns.begin(), end_ns.end()) -
                                    *std::min_element(begin_ns.begin(), begin_ns.end());

    const double calls = static_cast<double>(options.calls_per_thread) * options.threads;
    double total_cpu_ns = 0;
    for (std::int64_t ns : cpu_ns) {
        total_cpu_ns += static_cast<double>(ns);
    }
    // ns_per_call: wall time a thread spends per call; cpu_ns_per_call: CPU time per call (it
    // includes the pacing spin when --rate is given); process_cpu_ns: all CPU this process used,
    // start-up and warm-up included (to tell a tracer's own CPU from its target's).
    std::printf(
        "threads=%d calls=%.0f elapsed_ns=%lld ns_per_call=%.1f cpu_ns_per_call=%.1f "
        "calls_per_s=%.0f last_return=%d process_cpu_ns=%lld\n",
        options.threads, calls, static_cast<long long>(elapsed_ns),
        static_cast<double>(elapsed_ns) * options.threads / calls, total_cpu_ns / calls,
        calls * 1e9 / static_cast<double>(elapsed_ns), last_codes[0],
        static_cast<long long>(causeway::bench::process_cpu_ns()));
    return 0;
}
