#pragma once
// The clocks the benchmarks time themselves with, in nanoseconds (vDSO / one syscall, ~20 ns).

#include <time.h>

#include <cstdint>

namespace causeway::bench {

inline std::int64_t clock_ns(clockid_t clock) {
    timespec now{};
    clock_gettime(clock, &now);
    return std::int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
}

// Wall time.
inline std::int64_t monotonic_ns() {
    return clock_ns(CLOCK_MONOTONIC);
}

// CPU time of the calling thread, user and kernel (a uprobe's handler runs in the thread's
// context, so its cost is here), unaffected by time spent preempted by other work.
inline std::int64_t thread_cpu_ns() {
    return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

// CPU time of the whole process so far, every thread, user and kernel.
inline std::int64_t process_cpu_ns() {
    return clock_ns(CLOCK_PROCESS_CPUTIME_ID);
}

}  // namespace causeway::bench
