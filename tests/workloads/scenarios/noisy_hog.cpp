// noisy_hog: the noisy neighbour of scenario 4. It spins one thread per CPU (or --threads), each
// pinned to a CPU in turn, until --duration has passed or it is sent SIGTERM/SIGINT. Built as
// noisy_hog_one_cpu (NOISY_HOG_THREADS=1), it spins one thread, on CPU 0, by default: the
// neighbour of scenario 11, which loads the core of one rank. The suite
// starts it before the traced command, so it is outside the traced process tree; its name is what
// the diagnosis must report as the competitor.
#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "tests/workloads/scenarios/cpu_cost.hpp"
#include "tests/workloads/scenarios/scenario_run.hpp"

using namespace causeway::scenarios;

#ifndef NOISY_HOG_THREADS
#define NOISY_HOG_THREADS 0  // one per CPU
#endif

namespace {

std::atomic<bool> stop_requested{false};

void request_stop(int) {
    stop_requested.store(true);
}

void pin_to_cpu(std::thread& thread, int cpu) {
    cpu_set_t cpus;
    CPU_ZERO(&cpus);
    CPU_SET(cpu, &cpus);
    const int error = ::pthread_setaffinity_np(thread.native_handle(), sizeof cpus, &cpus);
    if (error != 0) {
        std::fprintf(stderr, "noisy_hog: cannot pin a thread to CPU %d (error %d); it floats\n",
                     cpu, error);
    }
}

void spin_until_stopped() {
    ::prctl(PR_SET_NAME, "noisy_hog", 0, 0, 0);
    while (!stop_requested.load(std::memory_order_relaxed)) {
        spend_cpu(1'000'000);
    }
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"noisy_hog: keeps CPUs busy, one pinned spinning thread per CPU"};
    int threads = NOISY_HOG_THREADS > 0 ? NOISY_HOG_THREADS : online_cpus();
    double duration_s = 60;
    app.add_option("--threads", threads, "spinning threads, pinned to CPUs 0, 1, ... in turn")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    app.add_option("--duration", duration_s, "seconds before it stops by itself")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    CLI11_PARSE(app, argc, argv);

    std::signal(SIGTERM, request_stop);
    std::signal(SIGINT, request_stop);
    std::vector<std::thread> spinners;
    for (int i = 0; i < threads; ++i) {
        spinners.emplace_back(spin_until_stopped);
        pin_to_cpu(spinners.back(), i % online_cpus());
    }
    std::printf("noisy_hog: %d threads spinning\n", threads);
    std::fflush(stdout);
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::duration<double>(duration_s);
    while (!stop_requested.load() && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    stop_requested.store(true);
    for (auto& spinner : spinners) {
        spinner.join();
    }
    return 0;
}
