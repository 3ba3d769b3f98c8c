#include "tests/workloads/scenarios/data_loader.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <system_error>

namespace causeway::scenarios {
namespace {

[[noreturn]] void throw_errno(const std::string& what) {
    throw std::system_error(errno, std::generic_category(), what);
}

// Batch numbers travel as 8-byte messages: a pipe write of at most PIPE_BUF bytes is atomic, so
// workers sharing the result queue never interleave.
bool read_batch(int fd, std::int64_t& batch) {
    ssize_t n;
    do {
        n = ::read(fd, &batch, sizeof batch);
    } while (n < 0 && errno == EINTR);
    return n == sizeof batch;
}

void write_batch(int fd, std::int64_t batch) {
    ssize_t n;
    do {
        n = ::write(fd, &batch, sizeof batch);
    } while (n < 0 && errno == EINTR);
    if (n != sizeof batch) {
        throw_errno("cannot write to a DataLoader queue");
    }
}

void make_pipe(int (&fds)[2]) {
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        throw_errno("cannot create a DataLoader queue (pipe)");
    }
}

}  // namespace

DataLoader::DataLoader(const LoaderOptions& options, const BatchProducer& produce)
    : options_(options) {
    if (options.workers < 1 || options.prefetch_factor < 1 || options.batch_bytes == 0) {
        throw std::invalid_argument(
            "a DataLoader needs at least one worker, a prefetch factor of"
            " at least 1 and a non-empty batch");
    }
    const auto page_bytes = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    slot_bytes_ = (options.batch_bytes + page_bytes - 1) / page_bytes * page_bytes;
    slots_ = static_cast<std::size_t>(options.workers * options.prefetch_factor);
    shared_ = ::mmap(nullptr, slots_ * slot_bytes_, PROT_READ | PROT_WRITE,
                     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared_ == MAP_FAILED) {
        throw_errno("cannot map " + std::to_string(slots_ * slot_bytes_) +
                    " bytes of shared memory for DataLoader batches");
    }
    int result[2];
    make_pipe(result);
    result_read_fd_ = result[0];
    result_write_fd_ = result[1];
    for (int worker = 0; worker < options.workers; ++worker) {
        int index[2];
        make_pipe(index);
        const pid_t pid = ::fork();
        if (pid < 0) {
            throw_errno("cannot fork DataLoader worker " + std::to_string(worker));
        }
        if (pid == 0) {
            ::close(index[1]);
            for (int fd : index_write_fds_) {
                ::close(fd);
            }
            ::close(result_read_fd_);
            run_worker(index[0], produce);
        }
        ::close(index[0]);
        index_write_fds_.push_back(index[1]);
        worker_pids_.push_back(pid);
    }
    ::close(result_write_fd_);
    result_write_fd_ = -1;
    for (std::size_t batch = 0; batch < slots_; ++batch) {
        request(static_cast<std::int64_t>(batch));
    }
}

DataLoader::~DataLoader() {
    for (int fd : index_write_fds_) {
        ::close(fd);
    }
    for (pid_t pid : worker_pids_) {
        int status = 0;
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
    }
    ::close(result_read_fd_);
    ::munmap(shared_, slots_ * slot_bytes_);
}

void DataLoader::run_worker(int index_read_fd, const BatchProducer& produce) {
    ::prctl(PR_SET_NAME, options_.worker_name.c_str(), 0, 0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);  // do not outlive the trainer
    try {
        std::int64_t batch = 0;
        while (read_batch(index_read_fd, batch)) {
            float* out = slot(batch);
            // A new shared-memory segment per batch, as PyTorch's collate makes: drop the slot's
            // pages so that filling it allocates fresh ones.
            ::madvise(out, slot_bytes_, MADV_REMOVE);
            produce(batch, out);
            write_batch(result_write_fd_, batch);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s %d: %s\n", options_.worker_name.c_str(), ::getpid(), e.what());
        ::_exit(1);
    }
    ::_exit(0);  // not exit(): the trainer's stdio buffers and atexit handlers are not ours
}

const float* DataLoader::acquire(std::int64_t batch) {
    while (!ready_.contains(batch)) {
        pollfd ready{result_read_fd_, POLLIN, 0};
        const int polled = ::poll(&ready, 1, 1000);
        if (polled < 0 && errno != EINTR) {
            throw_errno("cannot wait on the DataLoader result queue");
        }
        if (polled <= 0) {
            throw_if_a_worker_died();
            continue;
        }
        std::int64_t done = 0;
        if (!read_batch(result_read_fd_, done)) {
            throw_if_a_worker_died();
            throw std::runtime_error("the DataLoader result queue closed: every worker exited");
        }
        ready_.insert(done);
    }
    return slot(batch);
}

void DataLoader::release(std::int64_t batch) {
    ready_.erase(batch);
    request(batch + static_cast<std::int64_t>(slots_));
}

void DataLoader::request(std::int64_t batch) {
    write_batch(index_write_fds_[static_cast<std::size_t>(batch % options_.workers)], batch);
}

float* DataLoader::slot(std::int64_t batch) const {
    const auto index = static_cast<std::size_t>(batch) % slots_;
    return reinterpret_cast<float*>(static_cast<char*>(shared_) + index * slot_bytes_);
}

void DataLoader::throw_if_a_worker_died() const {
    for (pid_t pid : worker_pids_) {
        int status = 0;
        if (::waitpid(pid, &status, WNOHANG) == pid) {
            throw std::runtime_error("DataLoader worker " + std::to_string(pid) +
                                     " exited early (wait status " + std::to_string(status) +
                                     "); its stderr says why");
        }
    }
}

}  // namespace causeway::scenarios
