#include "tests/fakecuda/thread_clock.hpp"

#include <time.h>

#include <fstream>
#include <stdexcept>

namespace causeway::testing {
namespace {

std::uint64_t read_clock_ns(clockid_t clock) {
    timespec now{};
    clock_gettime(clock, &now);
    return static_cast<std::uint64_t>(now.tv_sec) * 1'000'000'000ULL +
           static_cast<std::uint64_t>(now.tv_nsec);
}

}  // namespace

ThreadTimes thread_times_now() {
    ThreadTimes times;
    times.wall_ns = read_clock_ns(CLOCK_MONOTONIC);
    std::ifstream schedstat("/proc/thread-self/schedstat");
    std::uint64_t on_cpu_ns = 0;
    if (!(schedstat >> on_cpu_ns >> times.run_queue_ns)) {
        throw std::runtime_error(
            "cannot read /proc/thread-self/schedstat (needs a kernel with CONFIG_SCHED_INFO)");
    }
    times.cpu_ns = read_clock_ns(CLOCK_THREAD_CPUTIME_ID);
    return times;
}

ThreadTimes operator-(const ThreadTimes& later, const ThreadTimes& earlier) {
    return ThreadTimes{later.wall_ns - earlier.wall_ns, later.cpu_ns - earlier.cpu_ns,
                       later.run_queue_ns - earlier.run_queue_ns};
}

void busy_host_work(std::uint64_t wall_ns) {
    const std::uint64_t until_ns = read_clock_ns(CLOCK_MONOTONIC) + wall_ns;
    while (read_clock_ns(CLOCK_MONOTONIC) < until_ns) {
    }
}

}  // namespace causeway::testing
