// cw_hog NAME CPU: renames itself NAME and spins on CPU until killed. The CPU competitor from
// outside the traced process tree in the collector's contention test.
#include <sys/prctl.h>

#include <cstdio>
#include <cstdlib>

#include "tests/workloads/testprogs/pin_to_cpu.hpp"

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: cw_hog NAME CPU\n");
        return 2;
    }
    prctl(PR_SET_NAME, argv[1]);
    pin_to_cpu(std::atoi(argv[2]));
    for (;;) {
        asm volatile("" ::: "memory");  // a loop the compiler cannot remove
    }
}
