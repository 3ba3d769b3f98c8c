#pragma once
// A DataLoader with forked worker processes, built the way PyTorch's is: every worker has an index
// queue (a pipe from the trainer carrying batch numbers), all workers share one result queue (a
// pipe back to the trainer), and batches travel through shared memory that the worker fills with
// freshly allocated pages every batch (PyTorch collates each batch into a new shared-memory
// segment). Workers rename themselves (prctl PR_SET_NAME, as PyTorch's pt_data_worker do), keep
// `prefetch_factor` batches each in flight, and the trainer takes batches in order.

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

namespace causeway::scenarios {

struct LoaderOptions {
    int workers = 2;                             // worker processes (num_workers)
    int prefetch_factor = 2;                     // batches in flight per worker
    std::size_t batch_bytes = 0;                 // size of one collated batch (bytes)
    std::string worker_name = "pt_data_worker";  // comm of the workers (15 bytes at most)
};

// Runs inside a worker process: writes batch number `batch` to `out` (batch_bytes long).
using BatchProducer = std::function<void(std::int64_t batch, float* out)>;

class DataLoader {
  public:
    // Maps the shared batch slots, forks the workers and queues the first batches.
    // Throws std::system_error when a pipe, the mapping or a fork fails.
    DataLoader(const LoaderOptions& options, const BatchProducer& produce);
    // Closes the index queues (each worker exits when it reads their end) and reaps the workers.
    ~DataLoader();
    DataLoader(const DataLoader&) = delete;
    DataLoader& operator=(const DataLoader&) = delete;

    // Blocks until batch `batch` is ready and returns it; valid until release(batch).
    // Throws std::runtime_error when a worker has died.
    const float* acquire(std::int64_t batch);
    // The trainer is done with `batch`: its slot is refilled with the batch `slots` later.
    void release(std::int64_t batch);

  private:
    // The body of a worker process: reads batch numbers from its index queue until it closes.
    [[noreturn]] void run_worker(int index_read_fd, const BatchProducer& produce);
    void request(std::int64_t batch);
    float* slot(std::int64_t batch) const;
    void throw_if_a_worker_died() const;

    LoaderOptions options_;
    std::size_t slot_bytes_ = 0;        // batch_bytes rounded up to whole pages
    std::size_t slots_ = 0;             // workers * prefetch_factor
    void* shared_ = nullptr;            // slots_ * slot_bytes_ of MAP_SHARED memory
    int result_read_fd_ = -1;           // trainer's end of the result queue
    int result_write_fd_ = -1;          // workers' end; closed in the trainer after the forks
    std::vector<int> index_write_fds_;  // trainer's end of each worker's index queue
    std::vector<pid_t> worker_pids_;
    std::set<std::int64_t> ready_;  // batches reported ready and not yet released
};

}  // namespace causeway::scenarios
