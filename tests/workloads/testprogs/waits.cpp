// cw_waits ROUNDS: the three ways a thread's sleep ends, each with a known waker, for the
// collector's wakeup test. ROUNDS times each:
//  1. the main thread reads a pipe that thread `cw_producer` writes after 2 ms of CPU work;
//  2. the main thread locks a mutex that thread `cw_locker` holds through 2 ms of CPU work;
//  3. the main thread sleeps 2 ms (nanosleep: its timer's interrupt ends the sleep).
// In 1 and 2 the other thread acts only once it has seen the main thread blocked in that read or
// lock, and then works 2 ms more: every round is one sleep of known length and waker, however
// loaded the machine is (a race between the two threads once let rounds pass without a sleep).
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
#include <string>
#include <thread>

namespace {

constexpr auto kWorkTime = std::chrono::milliseconds(2);

void spin_for(std::chrono::steady_clock::duration d) {
    auto until = std::chrono::steady_clock::now() + d;
    while (std::chrono::steady_clock::now() < until) {
    }
}

// True while thread `tid` of this process is blocked in system call `nr` (/proc's syscall file:
// the number first while blocked, "running" otherwise). The state alone is not enough: a thread
// also sleeps on a kernel lock, e.g. while another thread faults in its stack.
bool blocked_in(pid_t tid, long nr) {
    std::ifstream file("/proc/self/task/" + std::to_string(tid) + "/syscall");
    std::string first;
    if (!(file >> first)) {
        std::fprintf(stderr, "cannot read the system call of thread %d\n", tid);
        std::exit(1);
    }
    return first == std::to_string(nr);
}

// Waits until thread `tid` blocks in system call `nr`, then keeps it asleep for kWorkTime of
// this thread's CPU work.
void work_once_blocked(pid_t tid, long nr) {
    while (!blocked_in(tid, nr)) {
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
    // The round whose read the main thread has begun. /proc shows a thread woken from its read
    // but still waiting for a CPU as blocked in it too: without this the producer once took
    // that for the next round's read and wrote two bytes, and a round passed without a sleep.
    std::atomic<int> reading_round{-1};
    std::thread producer([&] {
        prctl(PR_SET_NAME, "cw_producer");
        for (int i = 0; i < rounds; ++i) {
            while (reading_round.load() < i) {
                std::this_thread::yield();
            }
            work_once_blocked(reader, SYS_read);
            char byte = 1;
            if (write(fds[1], &byte, 1) != 1) {
                std::exit(1);
            }
        }
    });
    for (int i = 0; i < rounds; ++i) {
        char byte;
        reading_round.store(i);
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
                work_once_blocked(waiter, SYS_futex);  // asleep in the lock
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
