// cw_hog NAME CPU: renames itself NAME and spins on CPU until killed. The CPU competitor from
// outside the traced process tree in the collector's contention test.
#include <sched.h>
#include <sys/prctl.h>

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: cw_hog NAME CPU\n");
        return 2;
    }
    prctl(PR_SET_NAME, argv[1]);
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(std::atoi(argv[2]), &set);
    if (sched_setaffinity(0, sizeof(set), &set) != 0) {
        std::perror("sched_setaffinity");
        return 1;
    }
    for (;;) {
        asm volatile("" ::: "memory");  // a loop the compiler cannot remove
    }
}
