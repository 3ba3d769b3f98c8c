#pragma once
// CLOCK_MONOTONIC in nanoseconds: the clock the benchmarks time themselves with (vDSO, ~20 ns).

#include <time.h>

#include <cstdint>

namespace causeway::bench {

inline std::int64_t monotonic_ns() {
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    return std::int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
}

}  // namespace causeway::bench
