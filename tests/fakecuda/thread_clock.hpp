#pragma once
// What the calling thread did over an interval: wall time, CPU time, time spent runnable but
// waiting for a CPU (from /proc/thread-self/schedstat), and how many times it went to sleep
// (voluntary context switches). A thread that spins or yields never sleeps; one that blocks does.
// Sleeps are counted rather than timed: on a virtual machine the hypervisor can take a vCPU from a
// spinning thread, and that stolen time is neither CPU time nor run-queue time in the guest.
// Also how long the fake device's threads ("fakecuda-s*") waited for a CPU, and the time the
// hypervisor took from the machine's vCPUs (steal, from /proc/stat): on a loaded machine or host
// those waits, not the emulation, are what make device work finish late.

#include <cstdint>

namespace causeway::testing {

struct ThreadTimes {
    std::uint64_t wall_ns = 0;
    std::uint64_t cpu_ns = 0;                       // on a CPU
    std::uint64_t run_queue_ns = 0;                 // runnable, waiting for a CPU
    std::uint64_t device_threads_run_queue_ns = 0;  // the fake's device threads, summed
    std::uint64_t machine_steal_ns = 0;             // all vCPUs, summed; 10 ms granules
    std::uint64_t sleeps = 0;                       // voluntary context switches

    // Wall time less the time this thread and the device threads waited for a CPU, in the guest
    // or in the hypervisor: what is left of a host observation once the load is taken out (never
    // below 0; steal on any vCPU counts, so this errs low, the side upper-bound checks allow).
    std::uint64_t wall_ns_without_cpu_waits() const {
        const std::uint64_t waits = run_queue_ns + device_threads_run_queue_ns + machine_steal_ns;
        return wall_ns > waits ? wall_ns - waits : 0;
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
