#pragma once
// A fixed number of threads running submitted jobs in order of arrival. Both transports run
// requests on one (a tool holds a CPU while it runs; a notifications/cancelled or /health must
// not wait behind it). Destroying the pool runs the jobs already submitted, then joins.

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace causeway::server {

class WorkerPool {
  public:
    explicit WorkerPool(std::size_t threads);
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    void submit(std::function<void()> job);

  private:
    void work();

    std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<std::function<void()>> jobs_;
    bool closing_ = false;
    std::vector<std::thread> threads_;
};

}  // namespace causeway::server
