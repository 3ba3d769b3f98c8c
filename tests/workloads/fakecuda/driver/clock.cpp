#include "clock.hpp"

#include <time.h>

#include <cerrno>

namespace fakecuda {
namespace {

Nanos read_clock_ns(clockid_t clock) {
    timespec now{};
    clock_gettime(clock, &now);
    return static_cast<Nanos>(now.tv_sec) * 1'000'000'000ULL + static_cast<Nanos>(now.tv_nsec);
}

}  // namespace

Nanos monotonic_now_ns() {
    return read_clock_ns(CLOCK_MONOTONIC);
}

void sleep_until_ns(Nanos deadline_ns) {
    timespec deadline{};
    deadline.tv_sec = static_cast<time_t>(deadline_ns / 1'000'000'000ULL);
    deadline.tv_nsec = static_cast<long>(deadline_ns % 1'000'000'000ULL);
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nullptr) == EINTR) {
    }
}

void burn_thread_cpu_ns(Nanos cpu_ns) {
    const Nanos until_ns = read_clock_ns(CLOCK_THREAD_CPUTIME_ID) + cpu_ns;
    while (read_clock_ns(CLOCK_THREAD_CPUTIME_ID) < until_ns) {
    }
}

Nanos transfer_ns(std::uint64_t bytes, double gbps) {
    return static_cast<Nanos>(static_cast<double>(bytes) / gbps);
}

}  // namespace fakecuda
