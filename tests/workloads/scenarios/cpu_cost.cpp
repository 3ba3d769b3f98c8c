#include "tests/workloads/scenarios/cpu_cost.hpp"

#include <time.h>

#include <algorithm>

namespace causeway::scenarios {

std::uint64_t thread_cpu_ns() {
    timespec now{};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<std::uint64_t>(now.tv_sec) * 1'000'000'000ull +
           static_cast<std::uint64_t>(now.tv_nsec);
}

namespace {

// The work itself: integer arithmetic the compiler cannot remove (the accumulator is volatile).
void work(std::uint64_t iterations) {
    volatile std::uint64_t accumulator = 0;
    for (std::uint64_t i = 0; i < iterations; ++i) {
        accumulator = accumulator * 6364136223846793005ull + i;
    }
}

// Iterations of work() per nanosecond of CPU time, measured once. Reading the thread's CPU clock
// is a system call that costs microseconds in a VM, too slow to poll per sample.
double iterations_per_ns() {
    static const double rate = [] {
        constexpr std::uint64_t kIterations = 1 << 22;
        const std::uint64_t start_ns = thread_cpu_ns();
        work(kIterations);
        const std::uint64_t used_ns = thread_cpu_ns() - start_ns;
        return used_ns > 0 ? static_cast<double>(kIterations) / static_cast<double>(used_ns) : 1.0;
    }();
    return rate;
}

}  // namespace

void spend_cpu(std::uint64_t cpu_ns) {
    work(static_cast<std::uint64_t>(static_cast<double>(cpu_ns) * iterations_per_ns()));
}

void spend_cpu_up_to(std::uint64_t since_ns, std::uint64_t budget_ns) {
    // In steps, reading the CPU clock after each: exact whatever the measured speed's error.
    constexpr std::uint64_t kStepNs = 50'000;
    for (std::uint64_t used_ns = thread_cpu_ns() - since_ns; used_ns < budget_ns;
         used_ns = thread_cpu_ns() - since_ns) {
        spend_cpu(std::min(kStepNs, budget_ns - used_ns));
    }
}

}  // namespace causeway::scenarios
