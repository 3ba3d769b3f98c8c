// cw_nccl_rank: one rank of a data-parallel training loop on the fake CUDA runtime and fake NCCL,
// started by cw_nccl_launch. Each step: the rank's host work, its kernels (--compute-us of device
// time), an ncclAllReduce of the gradients (--count floats) on the same stream, then
// cudaStreamSynchronize, where a rank waits for the slowest. --late-rank R --late-us U gives rank
// R U microseconds more host work a step (on its own CPU time), so every other rank waits for it;
// --late-sleep-us U instead has it sleep U microseconds a step (as a rank waiting for its input).
// --late-workers N instead gives rank R N DataLoader-like worker processes (pt_data_worker) that
// burn CPU for as long as it runs, taking the CPU its host work needs. --pin 1 binds each rank
// to one CPU (rank modulo the CPUs online), as a launcher binds ranks to their cores; the late
// rank's workers share its CPU.
// --hang-rank R --hang-after N: rank R stops after N steps and sleeps in a read that never
// returns, so the others wait in their next collective until the recording stops them.
// Prints "rank=R steps=N elapsed_s=S steps_per_s=X".
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cuda_runtime_api.h"
#include "fakecuda.h"
#include "nccl.h"
#include "rank_environment.hpp"

namespace {

struct Options {
    int steps = 100;
    long compute_us = 2000;
    long host_us = 200;
    std::size_t count = 1 << 20;
    int late_rank = -1;
    long late_us = 0;
    long late_sleep_us = 0;
    int late_workers = 0;
    bool pin = false;
    int hang_rank = -1;
    int hang_after = 0;
};

// Blocks for good, asleep: a read of a pipe nobody writes (as a rank stuck in its data loading).
[[noreturn]] void hang() {
    int fds[2];
    char byte = 0;
    for (;;) {
        if (pipe(fds) == 0) {
            (void)!read(fds[0], &byte, 1);
        }
        sleep(1);
    }
}

double seconds(clockid_t clock) {
    timespec ts{};
    clock_gettime(clock, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Spends `us` microseconds of this thread's own CPU time.
void host_work(long us) {
    const double end = seconds(CLOCK_THREAD_CPUTIME_ID) + static_cast<double>(us) * 1e-6;
    while (seconds(CLOCK_THREAD_CPUTIME_ID) < end) {
    }
}

void model_kernel() {}

bool parse(int argc, char** argv, Options& o) {
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string name = argv[i];
        const long value = std::strtol(argv[i + 1], nullptr, 10);
        if (name == "--steps") {
            o.steps = static_cast<int>(value);
        } else if (name == "--compute-us") {
            o.compute_us = value;
        } else if (name == "--host-us") {
            o.host_us = value;
        } else if (name == "--count") {
            o.count = static_cast<std::size_t>(value);
        } else if (name == "--late-rank") {
            o.late_rank = static_cast<int>(value);
        } else if (name == "--late-us") {
            o.late_us = value;
        } else if (name == "--late-sleep-us") {
            o.late_sleep_us = value;
        } else if (name == "--late-workers") {
            o.late_workers = static_cast<int>(value);
        } else if (name == "--pin") {
            o.pin = value != 0;
        } else if (name == "--hang-rank") {
            o.hang_rank = static_cast<int>(value);
        } else if (name == "--hang-after") {
            o.hang_after = static_cast<int>(value);
        } else {
            return false;
        }
    }
    return argc % 2 == 1 && o.steps > 0 && o.compute_us >= 0 && o.host_us >= 0 && o.late_us >= 0 &&
           o.late_sleep_us >= 0 && o.late_workers >= 0;
}

// Binds this process to one CPU, chosen by `rank`.
void pin_to_cpu(int rank) {
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(static_cast<int>(rank % (cpus > 0 ? cpus : 1)), &set);
    sched_setaffinity(0, sizeof set, &set);
}

// Starts `count` worker processes named pt_data_worker that burn CPU until this process ends
// them (or dies: they get SIGKILL then).
std::vector<pid_t> start_workers(int count) {
    std::vector<pid_t> workers;
    for (int i = 0; i < count; ++i) {
        const pid_t pid = fork();
        if (pid == 0) {
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            prctl(PR_SET_NAME, "pt_data_worker");
            for (;;) {
                host_work(1'000'000);
            }
        }
        if (pid > 0) {
            workers.push_back(pid);
        }
    }
    return workers;
}

void stop_workers(const std::vector<pid_t>& workers) {
    for (pid_t pid : workers) {
        kill(pid, SIGKILL);
        waitpid(pid, nullptr, 0);
    }
}

int fail(const char* what, int code) {
    std::fprintf(stderr, "cw_nccl_rank: %s failed (%d)\n", what, code);
    return 1;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    if (!parse(argc, argv, o)) {
        std::fprintf(stderr,
                     "usage: cw_nccl_rank [--steps N] [--compute-us U] [--host-us U] [--count N] "
                     "[--late-rank R --late-us U --late-sleep-us U --late-workers N] [--pin 1] "
                     "[--hang-rank R --hang-after N]\n");
        return 2;
    }
    std::string error;
    auto env = fakenccl::rank_environment(error);
    if (!env) {
        std::fprintf(stderr, "cw_nccl_rank: %s\n", error.c_str());
        return 2;
    }
    fakecudaSetKernelDuration(reinterpret_cast<const void*>(&model_kernel),
                              static_cast<unsigned long long>(o.compute_us) * 1000);
    cudaStream_t stream = nullptr;
    float* gradients = nullptr;
    if (int rc = cudaStreamCreate(&stream); rc != cudaSuccess) {
        return fail("cudaStreamCreate", rc);
    }
    if (int rc = cudaMalloc(reinterpret_cast<void**>(&gradients), o.count * sizeof(float));
        rc != cudaSuccess) {
        return fail("cudaMalloc", rc);
    }
    ncclComm_t comm = nullptr;
    if (int rc = ncclCommInitRank(&comm, env->world_size, env->id, env->rank); rc != ncclSuccess) {
        return fail("ncclCommInitRank", rc);
    }
    const bool late = env->rank == o.late_rank;
    if (o.pin) {
        pin_to_cpu(env->rank);
    }
    const std::vector<pid_t> workers = start_workers(late ? o.late_workers : 0);
    const long host_us = o.host_us + (late ? o.late_us : 0);
    const timespec late_sleep{.tv_sec = late ? o.late_sleep_us / 1'000'000 : 0,
                              .tv_nsec = late ? o.late_sleep_us % 1'000'000 * 1000 : 0};
    const double start = seconds(CLOCK_MONOTONIC);
    for (int step = 0; step < o.steps; ++step) {
        if (env->rank == o.hang_rank && step == o.hang_after) {
            hang();
        }
        host_work(host_us);
        if (late_sleep.tv_sec != 0 || late_sleep.tv_nsec != 0) {
            nanosleep(&late_sleep, nullptr);
        }
        void* no_arguments[] = {nullptr};
        cudaLaunchKernel(reinterpret_cast<const void*>(&model_kernel), dim3(1), dim3(1),
                         no_arguments, 0, stream);
        if (int rc =
                ncclAllReduce(gradients, gradients, o.count, ncclFloat32, ncclSum, comm, stream);
            rc != ncclSuccess) {
            return fail("ncclAllReduce", rc);
        }
        cudaStreamSynchronize(stream);
    }
    const double elapsed = seconds(CLOCK_MONOTONIC) - start;
    stop_workers(workers);
    ncclCommDestroy(comm);
    cudaFree(gradients);
    cudaStreamDestroy(stream);
    std::printf("rank=%d steps=%d elapsed_s=%.3f steps_per_s=%.2f\n", env->rank, o.steps, elapsed,
                o.steps / elapsed);
    return 0;
}
