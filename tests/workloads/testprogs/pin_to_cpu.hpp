#pragma once
// Pins the calling thread to one CPU, or exits with 1 saying why: the test programs compete on a
// CPU chosen by the test.
#include <sched.h>

#include <cstdio>
#include <cstdlib>

inline void pin_to_cpu(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof(set), &set) != 0) {
        std::perror("sched_setaffinity");
        std::exit(1);
    }
}
