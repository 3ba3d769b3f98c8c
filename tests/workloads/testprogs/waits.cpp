// cw_waits ROUNDS: the three ways a thread's sleep ends, each with a known waker, for the
// collector's wakeup test. ROUNDS times each:
//  1. the main thread reads a pipe that thread `cw_producer` writes after 2 ms of CPU work;
//  2. the main thread locks a mutex that thread `cw_locker` holds through 2 ms of CPU work;
//  3. the main thread sleeps 2 ms (nanosleep: its timer's interrupt ends the sleep).
#include <pthread.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

namespace {

constexpr auto kWorkTime = std::chrono::milliseconds(2);

void spin_for(std::chrono::steady_clock::duration d) {
    auto until = std::chrono::steady_clock::now() + d;
    while (std::chrono::steady_clock::now() < until) {
    }
}

void read_from_producer(int rounds) {
    int fds[2];
    if (pipe(fds) != 0) {
        std::perror("pipe");
        std::exit(1);
    }
    std::thread producer([&] {
        prctl(PR_SET_NAME, "cw_producer");
        for (int i = 0; i < rounds; ++i) {
            spin_for(kWorkTime);
            char byte = 1;
            if (write(fds[1], &byte, 1) != 1) {
                std::exit(1);
            }
        }
    });
    for (int i = 0; i < rounds; ++i) {
        char byte;
        if (read(fds[0], &byte, 1) != 1) {
            std::exit(1);
        }
    }
    producer.join();
    close(fds[0]);
    close(fds[1]);
}

void wait_for_lock_holder(int rounds) {
    std::mutex lock;
    std::atomic<int> round{-1};
    std::thread locker([&] {
        prctl(PR_SET_NAME, "cw_locker");
        for (int i = 0; i < rounds; ++i) {
            std::lock_guard<std::mutex> held(lock);
            round.store(i);
            spin_for(kWorkTime);
        }
    });
    for (int i = 0; i < rounds; ++i) {
        while (round.load() < i) {  // the holder has taken the lock for round i
            std::this_thread::yield();
        }
        std::lock_guard<std::mutex> taken(lock);
    }
    locker.join();
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: cw_waits ROUNDS\n");
        return 2;
    }
    int rounds = std::atoi(argv[1]);
    read_from_producer(rounds);
    wait_for_lock_holder(rounds);
    for (int i = 0; i < rounds; ++i) {
        std::this_thread::sleep_for(kWorkTime);
    }
    return 0;
}
