// cw_fake_workload MODE ARGS: workloads on the fake CUDA runtime with known call counts and
// timings, for the collector's runtime tests. Every mode prints what it did on stdout.
//   counts N       N x (pageable cudaMemcpy, pinned cudaMemcpyAsync, cudaLaunchKernel of a 2 ms
//                  kernel, cudaStreamSynchronize), plus one cudaMalloc/cudaFree and one
//                  cudaMallocHost/cudaFreeHost of 1 MiB
//   tree N         forks a child (renamed cw_child, exits with 7) and starts a thread (renamed
//                  cw_worker) that calls cudaDeviceSynchronize N times
//   contend S CPU  for S seconds, on CPU: the main thread launches kernels in a loop while a
//                  forked child renamed cw_hog_inside spins
//   flood N        N cudaDeviceSynchronize calls as fast as possible
//   shared-slot N  the main thread and a thread renamed cw_slot_sharer, whose tid has the same
//                  low bits as the main thread's (the collector's open-call slot, bpf/
//                  open_calls.bpf.h), each launch and synchronise N times at the same time;
//                  threads are started and ended until one gets such a tid
#include <cuda_runtime_api.h>
#include <fakecuda.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "bpf/causeway_abi.h"
#include "tests/workloads/testprogs/pin_to_cpu.hpp"

namespace {

constexpr std::size_t kCopyBytes = 65536;
constexpr unsigned long long kKernelNs = 2'000'000;

void kernel_2ms() {}
void kernel_20us() {}

void check(int rc, const char* what) {
    if (rc != cudaSuccess) {
        std::fprintf(stderr, "%s failed: %d\n", what, static_cast<int>(rc));
        std::exit(1);
    }
}

int counts(int n) {
    check(fakecudaSetKernelDuration(reinterpret_cast<const void*>(&kernel_2ms), kKernelNs),
          "fakecudaSetKernelDuration");
    void* device = nullptr;
    void* pinned = nullptr;
    std::vector<char> pageable(kCopyBytes, 1);
    check(cudaMalloc(&device, 1 << 20), "cudaMalloc");
    check(cudaMallocHost(&pinned, 1 << 20), "cudaMallocHost");
    cudaStream_t stream = nullptr;
    check(cudaStreamCreate(&stream), "cudaStreamCreate");
    for (int i = 0; i < n; ++i) {
        check(cudaMemcpy(device, pageable.data(), kCopyBytes, cudaMemcpyHostToDevice),
              "cudaMemcpy");
        check(cudaMemcpyAsync(device, pinned, kCopyBytes, cudaMemcpyHostToDevice, stream),
              "cudaMemcpyAsync");
        check(cudaLaunchKernel(reinterpret_cast<const void*>(&kernel_2ms), dim3(1), dim3(1),
                               nullptr, 0, stream),
              "cudaLaunchKernel");
        check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    }
    check(cudaFreeHost(pinned), "cudaFreeHost");
    check(cudaFree(device), "cudaFree");
    std::printf("counts %d stream %p\n", n, static_cast<void*>(stream));
    return 0;
}

int tree(int n) {
    pid_t child = fork();
    if (child == 0) {
        prctl(PR_SET_NAME, "cw_child");
        usleep(200'000);
        _exit(7);
    }
    std::thread worker([n] {
        pthread_setname_np(pthread_self(), "cw_worker");
        for (int i = 0; i < n; ++i) {
            check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
        }
    });
    worker.join();
    int status = 0;
    waitpid(child, &status, 0);
    std::printf("tree child %d worker calls %d\n", child, n);
    return 0;
}

int contend(double seconds, int cpu) {
    pin_to_cpu(cpu);
    pid_t hog = fork();
    if (hog == 0) {
        prctl(PR_SET_NAME, "cw_hog_inside");
        for (;;) {
            asm volatile("" ::: "memory");  // a loop the compiler cannot remove
        }
    }
    auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    long launches = 0;
    while (std::chrono::steady_clock::now() < end) {
        check(cudaLaunchKernel(reinterpret_cast<const void*>(&kernel_2ms), dim3(1), dim3(1),
                               nullptr, 0, nullptr),
              "cudaLaunchKernel");
        ++launches;
        if (launches % 64 == 0) {
            check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
        }
    }
    kill(hog, SIGKILL);
    waitpid(hog, nullptr, 0);
    std::printf("contend launches %ld\n", launches);
    return 0;
}

int flood(long n) {
    for (long i = 0; i < n; ++i) {
        check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    }
    std::printf("flood %ld\n", n);
    return 0;
}

// Launches of a 20 us kernel, each with its driver call inside, and a synchronisation.
void launch_and_sync(int n) {
    for (int i = 0; i < n; ++i) {
        check(cudaLaunchKernel(reinterpret_cast<const void*>(&kernel_20us), dim3(1), dim3(1),
                               nullptr, 0, nullptr),
              "cudaLaunchKernel");
        check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    }
}

int shared_slot(int n) {
    check(fakecudaSetKernelDuration(reinterpret_cast<const void*>(&kernel_20us), 20'000),
          "fakecudaSetKernelDuration");
    const pid_t main_tid = gettid();
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");  // the main thread's slot is taken
    constexpr long kMostThreads = 16L * CW_OPEN_CALL_SLOTS;   // other processes take tids too
    for (long started = 1; started <= kMostThreads; ++started) {
        std::promise<pid_t> tid;
        std::promise<bool> go;
        std::thread thread([&tid, go = go.get_future(), n]() mutable {
            tid.set_value(gettid());
            if (go.get()) {
                pthread_setname_np(pthread_self(), "cw_slot_sharer");
                launch_and_sync(n);
            }
        });
        const pid_t sharer = tid.get_future().get();
        const bool shares = sharer % CW_OPEN_CALL_SLOTS == main_tid % CW_OPEN_CALL_SLOTS;
        go.set_value(shares);
        if (shares) {
            launch_and_sync(n);
        }
        thread.join();
        if (shares) {
            std::printf("shared-slot main %d sharer %d after %ld threads\n", main_tid, sharer,
                        started);
            return 0;
        }
    }
    std::fprintf(stderr, "no thread of %ld got a tid with the main thread's slot\n", kMostThreads);
    return 1;
}

}  // namespace

int main(int argc, char** argv) {
    std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "counts" && argc == 3) {
        return counts(std::atoi(argv[2]));
    }
    if (mode == "tree" && argc == 3) {
        return tree(std::atoi(argv[2]));
    }
    if (mode == "contend" && argc == 4) {
        return contend(std::atof(argv[2]), std::atoi(argv[3]));
    }
    if (mode == "flood" && argc == 3) {
        return flood(std::atol(argv[2]));
    }
    if (mode == "shared-slot" && argc == 3) {
        return shared_slot(std::atoi(argv[2]));
    }
    std::fprintf(stderr,
                 "usage: cw_fake_workload counts N | tree N | contend SECONDS CPU | flood N | "
                 "shared-slot N\n");
    return 2;
}
