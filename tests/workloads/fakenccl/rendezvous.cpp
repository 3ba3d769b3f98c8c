#include "rendezvous.hpp"

#include <fcntl.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <climits>
#include <ctime>

namespace fakenccl {
namespace {

// Waits while `*word` still holds `seen`, at most 100 ms (a rank that died never wakes us).
void futex_wait(std::atomic<std::uint32_t>& word, std::uint32_t seen) {
    timespec timeout{0, 100'000'000};
    syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAIT, seen, &timeout, nullptr,
            0);
}

void futex_wake_all(std::atomic<std::uint32_t>& word) {
    syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAKE, INT_MAX, nullptr,
            nullptr, 0);
}

}  // namespace

Rendezvous::Rendezvous(const std::string& name, int nranks, int rank)
    : name_(name), nranks_(nranks), rank_(rank) {
    if (name.empty()) {
        state_ = new SharedState{};
        private_ = true;
    } else {
        const int fd = shm_open(name.c_str(), O_CREAT | O_RDWR, 0600);
        if (fd < 0) {
            return;
        }
        void* mapped = MAP_FAILED;
        if (ftruncate(fd, sizeof(SharedState)) == 0) {
            mapped = mmap(nullptr, sizeof(SharedState), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        }
        close(fd);
        if (mapped == MAP_FAILED) {
            return;
        }
        state_ = static_cast<SharedState*>(mapped);  // a new segment reads as zeros
    }
    state_->joined.fetch_add(1);
    state_->changes.fetch_add(1);
    futex_wake_all(state_->changes);
    wait_until([this] { return state_->joined.load() >= nranks_; });
}

Rendezvous::~Rendezvous() {
    if (state_ == nullptr) {
        return;
    }
    if (private_) {
        delete state_;
        return;
    }
    const bool last = state_->left.fetch_add(1) + 1 == nranks_;
    munmap(state_, sizeof(SharedState));
    if (last) {
        shm_unlink(name_.c_str());
    }
}

void Rendezvous::mark(std::atomic<std::uint64_t>& slot, std::uint64_t number) {
    slot.store(number);
    state_->changes.fetch_add(1);
    futex_wake_all(state_->changes);
}

template <class Done>
void Rendezvous::wait_until(Done done) {
    for (;;) {
        const std::uint32_t seen = state_->changes.load();
        if (done()) {
            return;
        }
        futex_wait(state_->changes, seen);
    }
}

void Rendezvous::collective(std::uint64_t number) {
    mark(state_->reached[rank_], number);
    wait_until([&] {
        for (int r = 0; r < nranks_; ++r) {
            if (state_->reached[r].load() < number) {
                return false;
            }
        }
        return true;
    });
}

void Rendezvous::send(int peer, std::uint64_t number) {
    mark(state_->sent[rank_][peer], number);
    wait_until([&] { return state_->received[rank_][peer].load() >= number; });
}

void Rendezvous::receive(int peer, std::uint64_t number) {
    mark(state_->received[peer][rank_], number);
    wait_until([&] { return state_->sent[peer][rank_].load() >= number; });
}

}  // namespace fakenccl
