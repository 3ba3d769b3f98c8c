#pragma once
// What the calling thread did over an interval: wall time, CPU time, and time spent runnable but
// waiting for a CPU (from /proc/thread-self/schedstat). A thread that spins or yields is runnable
// for (almost) all of the interval; one that blocks is neither on a CPU nor waiting for one.
// Also how long the fake device's threads ("fakecuda-s*") waited for a CPU: on a loaded machine
// those waits, not the emulation, are what make device work finish late.

#include <cstdint>

namespace causeway::testing {

struct ThreadTimes {
    std::uint64_t wall_ns = 0;
    std::uint64_t cpu_ns = 0;                       // on a CPU
    std::uint64_t run_queue_ns = 0;                 // runnable, waiting for a CPU
    std::uint64_t device_threads_run_queue_ns = 0;  // the fake's device threads, summed

    // Wall time less the time this thread and the device threads waited for a CPU: what is left
    // of a host observation once the machine's load is taken out (never below 0).
    std::uint64_t wall_ns_without_cpu_waits() const {
        const std::uint64_t waits = run_queue_ns + device_threads_run_queue_ns;
        return wall_ns > waits ? wall_ns - waits : 0;
    }

    // Share of the wall time the thread was runnable (on a CPU or waiting for one).
    double runnable_fraction() const {
        return wall_ns == 0 ? 0.0 : static_cast<double>(cpu_ns + run_queue_ns) / wall_ns;
    }
};

ThreadTimes thread_times_now();
ThreadTimes operator-(const ThreadTimes& later, const ThreadTimes& earlier);

// Keeps the calling thread busy for `wall_ns` of wall time: host work between CUDA calls.
void busy_host_work(std::uint64_t wall_ns);

constexpr std::uint64_t operator""_ms(unsigned long long ms) {
    return ms * 1'000'000ULL;
}

// Runs `work` and returns what the calling thread did meanwhile.
template <typename Work>
ThreadTimes measure(Work&& work) {
    const ThreadTimes before = thread_times_now();
    work();
    return thread_times_now() - before;
}

}  // namespace causeway::testing
