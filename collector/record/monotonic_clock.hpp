#pragma once
// The clock of a recording: CLOCK_MONOTONIC in nanoseconds, the clock of the session's start
// (session.start_mono_ns) and of the kernel's timestamps.

#include <time.h>

#include <cstdint>

namespace causeway::collector {

inline std::int64_t monotonic_ns() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

}  // namespace causeway::collector
