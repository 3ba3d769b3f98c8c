#include "tests/workloads/scenarios/cpu_cost.hpp"

#include <time.h>

namespace causeway::scenarios {
namespace {

std::uint64_t thread_cpu_ns() {
    timespec now{};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<std::uint64_t>(now.tv_sec) * 1'000'000'000ull +
           static_cast<std::uint64_t>(now.tv_nsec);
}

}  // namespace

void spend_cpu(std::uint64_t cpu_ns) {
    const std::uint64_t until_ns = thread_cpu_ns() + cpu_ns;
    // The accumulator is volatile so the arithmetic between clock reads is not optimised away.
    volatile std::uint64_t accumulator = 0;
    while (thread_cpu_ns() < until_ns) {
        for (std::uint64_t i = 0; i < 256; ++i) {
            accumulator = accumulator * 6364136223846793005ull + i;
        }
    }
}

}  // namespace causeway::scenarios
