// causeway-bench-ping-pong: two threads pinned to one CPU pass a byte back and forth through
// two pipes, so every hand-off is a wakeup and a context switch. Under a scheduler tracer the
// difference in ns per round trip is that tracer's cost on context-switch-heavy work.
// Prints one line of key=value results.
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "bench/clocks.hpp"

namespace {

struct Pipe {
    int read_fd = -1;
    int write_fd = -1;
};

bool pin_to_cpu(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof(set), &set) == 0;
}

// Sends one byte and waits for one back, `rounds` times.
void volley(const Pipe& out, const Pipe& in, std::int64_t rounds) {
    char token = 'x';
    for (std::int64_t i = 0; i < rounds; ++i) {
        if (write(out.write_fd, &token, 1) != 1 || read(in.read_fd, &token, 1) != 1) {
            std::fprintf(stderr, "causeway-bench-ping-pong: pipe failed: %s\n",
                         std::strerror(errno));
            std::exit(1);
        }
    }
}

// Waits for a byte and returns it, `rounds` times.
void answer(const Pipe& in, const Pipe& out, std::int64_t rounds) {
    char token = 0;
    for (std::int64_t i = 0; i < rounds; ++i) {
        if (read(in.read_fd, &token, 1) != 1 || write(out.write_fd, &token, 1) != 1) {
            std::fprintf(stderr, "causeway-bench-ping-pong: pipe failed: %s\n",
                         std::strerror(errno));
            std::exit(1);
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"Ping-pong a byte between two threads on one CPU; report ns per round trip"};
    std::int64_t rounds = 200'000;
    int cpu = 0;
    app.add_option("--rounds", rounds, "round trips (2 context switches each)")
        ->check(CLI::PositiveNumber);
    app.add_option("--cpu", cpu, "CPU both threads are pinned to")->check(CLI::NonNegativeNumber);
    CLI11_PARSE(app, argc, argv);

    int fds[4];
    if (pipe(fds) != 0 || pipe(fds + 2) != 0) {
        std::fprintf(stderr, "causeway-bench-ping-pong: cannot create pipes: %s\n",
                     std::strerror(errno));
        return 1;
    }
    const Pipe ping{fds[0], fds[1]};
    const Pipe pong{fds[2], fds[3]};
    if (!pin_to_cpu(cpu)) {
        std::fprintf(stderr, "causeway-bench-ping-pong: cannot pin to CPU %d\n", cpu);
        return 1;
    }
    std::thread responder([&] {
        pin_to_cpu(cpu);
        answer(ping, pong, rounds);
    });
    const std::int64_t begin_ns = causeway::bench::monotonic_ns();
    const std::int64_t cpu_begin_ns = causeway::bench::process_cpu_ns();
    volley(ping, pong, rounds);
    const std::int64_t elapsed_ns = causeway::bench::monotonic_ns() - begin_ns;
    responder.join();
    // CPU time of both threads (the switches and any tracer programs they trigger run in their
    // context), which other load on the CPU does not inflate the way it does wall time.
    const std::int64_t cpu_ns = causeway::bench::process_cpu_ns() - cpu_begin_ns;
    std::printf("rounds=%lld elapsed_ns=%lld ns_per_round_trip=%.1f cpu_ns_per_round_trip=%.1f\n",
                static_cast<long long>(rounds), static_cast<long long>(elapsed_ns),
                static_cast<double>(elapsed_ns) / static_cast<double>(rounds),
                static_cast<double>(cpu_ns) / static_cast<double>(rounds));
    return 0;
}
