// cw_waits ROUNDS: the three ways a thread's sleep ends, each with a known waker, for the
// collector's wakeup test. ROUNDS times each:
//  1. the main thread reads a pipe that thread `cw_producer` writes after 2 ms of CPU work;
//  2. the main thread locks a mutex that thread `cw_locker` holds through 2 ms of CPU work;
//  3. the main thread sleeps 2 ms (nanosleep: its timer's interrupt ends the sleep).
// In 1 and 2 the other thread acts only once it has seen the main thread asleep, and then works
// 2 ms more: every round is one sleep of known length and waker, however loaded the machine is
// (a race between the two threads once let rounds pass without a sleep).
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>

namespace {

constexpr auto kWorkTime = std::chrono::milliseconds(2);

void spin_for(std::chrono::steady_clock::duration d) {
    auto until = std::chrono::steady_clock::now() + d;
    while (std::chrono::steady_clock::now() < until) {
    }
}

// True while thread `tid` of this process sleeps (state S or D in /proc).
bool asleep(pid_t tid) {
    std::ifstream stat("/proc/self/task/" + std::to_string(tid) + "/stat");
    std::stringstream text;
    text << stat.rdbuf();
    const std::string line = text.str();
    const auto after_name = line.rfind(')');
    if (after_name == std::string::npos || after_name + 2 >= line.size()) {
        std::fprintf(stderr, "cannot read the state of thread %d\n", tid);
        std::exit(1);
    }
    const char state = line[after_name + 2];
    return state == 'S' || state == 'D';
}

// Waits until thread `tid` sleeps, then keeps it asleep for kWorkTime of this thread's CPU work.
void work_once_asleep(pid_t tid) {
    while (!asleep(tid)) {
        std::this_thread::yield();
    }
    spin_for(kWorkTime);
}

void read_from_producer(int rounds) {
    int fds[2];
    if (pipe(fds) != 0) {
        std::perror("pipe");
        std::exit(1);
    }
    const auto reader = static_cast<pid_t>(syscall(SYS_gettid));
    std::thread producer([&] {
        prctl(PR_SET_NAME, "cw_producer");
        for (int i = 0; i < rounds; ++i) {
            work_once_asleep(reader);
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
    std::atomic<int> held_round{-1};   // the holder has taken the lock for this round
    std::atomic<int> taken_round{-1};  // the main thread has had the lock in this round
    const auto waiter = static_cast<pid_t>(syscall(SYS_gettid));
    std::thread locker([&] {
        prctl(PR_SET_NAME, "cw_locker");
        for (int i = 0; i < rounds; ++i) {
            {
                std::lock_guard<std::mutex> held(lock);
                held_round.store(i);
                work_once_asleep(waiter);  // asleep in the lock: the only place it sleeps here
            }
            while (taken_round.load() < i) {
                std::this_thread::yield();
            }
        }
    });
    for (int i = 0; i < rounds; ++i) {
        while (held_round.load() < i) {
            std::this_thread::yield();
        }
        std::lock_guard<std::mutex> taken(lock);
        taken_round.store(i);
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
