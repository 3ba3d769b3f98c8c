// cw_throttled CPU QUOTA_CPUS SECONDS: spins on CPU for SECONDS of wall time in a cgroup made for
// it with a quota of QUOTA_CPUS CPUs, as a container's CPU limit sets one, then leaves the group
// and removes it. The throttled thread of the collector's quota test. Needs root.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>

#include "tests/workloads/scenarios/cpu_quota_group.hpp"
#include "tests/workloads/testprogs/pin_to_cpu.hpp"

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: cw_throttled CPU QUOTA_CPUS SECONDS\n");
        return 2;
    }
    pin_to_cpu(std::atoi(argv[1]));
    try {
        causeway::scenarios::CpuQuotaGroup group(std::atof(argv[2]));
        const auto end =
            std::chrono::steady_clock::now() + std::chrono::duration<double>(std::atof(argv[3]));
        while (std::chrono::steady_clock::now() < end) {
            asm volatile("" ::: "memory");  // a loop the compiler cannot remove
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "cw_throttled: %s\n", e.what());
        return 1;
    }
    return 0;
}
