#include "tests/fakecuda/thread_clock.hpp"

#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

namespace causeway::testing {
namespace {

std::uint64_t read_clock_ns(clockid_t clock) {
    timespec now{};
    clock_gettime(clock, &now);
    return static_cast<std::uint64_t>(now.tv_sec) * 1'000'000'000ULL +
           static_cast<std::uint64_t>(now.tv_nsec);
}

// Field 2 of a schedstat file: nanoseconds spent runnable, waiting for a CPU.
std::uint64_t run_queue_ns_of(const std::filesystem::path& schedstat) {
    std::ifstream in(schedstat);
    std::uint64_t on_cpu_ns = 0;
    std::uint64_t waiting_ns = 0;
    in >> on_cpu_ns >> waiting_ns;
    return waiting_ns;
}

// Summed over this process's threads named "fakecuda-s*" (the fake device's stream threads).
std::uint64_t device_threads_run_queue_ns() {
    std::uint64_t total_ns = 0;
    std::error_code ignored;  // threads come and go while the folder is read
    for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", ignored)) {
        std::ifstream comm(task.path() / "comm");
        std::string name;
        if (std::getline(comm, name) && name.rfind("fakecuda-s", 0) == 0) {
            total_ns += run_queue_ns_of(task.path() / "schedstat");
        }
    }
    return total_ns;
}

// The steal column (the eighth number) of /proc/stat's "cpu" line (all vCPUs), in nanoseconds.
std::uint64_t machine_steal_ns() {
    std::ifstream stat("/proc/stat");
    std::string label;
    stat >> label;
    std::uint64_t column = 0;
    for (int index = 0; index < 8 && stat; ++index) {
        stat >> column;
    }
    if (!stat || label != "cpu") {
        throw std::runtime_error("cannot read the steal time from /proc/stat");
    }
    return column * (1'000'000'000ULL / static_cast<std::uint64_t>(sysconf(_SC_CLK_TCK)));
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
    rusage usage{};
    if (getrusage(RUSAGE_THREAD, &usage) != 0) {
        throw std::runtime_error("getrusage(RUSAGE_THREAD) failed");
    }
    times.sleeps = static_cast<std::uint64_t>(usage.ru_nvcsw);
    times.device_threads_run_queue_ns = device_threads_run_queue_ns();
    times.machine_steal_ns = machine_steal_ns();
    return times;
}

ThreadTimes operator-(const ThreadTimes& later, const ThreadTimes& earlier) {
    // Device threads that ended in between take their waits with them: never below 0.
    const std::uint64_t device_waits_ns =
        later.device_threads_run_queue_ns > earlier.device_threads_run_queue_ns
            ? later.device_threads_run_queue_ns - earlier.device_threads_run_queue_ns
            : 0;
    return ThreadTimes{later.wall_ns - earlier.wall_ns,
                       later.cpu_ns - earlier.cpu_ns,
                       later.run_queue_ns - earlier.run_queue_ns,
                       device_waits_ns,
                       later.machine_steal_ns - earlier.machine_steal_ns,
                       later.sleeps - earlier.sleeps};
}

void busy_host_work(std::uint64_t wall_ns) {
    const std::uint64_t until_ns = read_clock_ns(CLOCK_MONOTONIC) + wall_ns;
    while (read_clock_ns(CLOCK_MONOTONIC) < until_ns) {
    }
}

}  // namespace causeway::testing
