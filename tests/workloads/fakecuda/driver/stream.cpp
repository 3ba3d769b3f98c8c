#include "stream.hpp"

#include <pthread.h>
#include <sys/prctl.h>

#include <algorithm>
#include <string>

namespace fakecuda {

Stream::Stream(Kind kind, int id) : kind_(kind), device_thread_([this] { serve(); }) {
    const std::string name = "fakecuda-s" + std::to_string(id);
    pthread_setname_np(device_thread_.native_handle(), name.c_str());
}

Stream::~Stream() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    work_ready_.notify_all();
    device_thread_.join();
}

std::uint64_t Stream::enqueue(DeviceOp op) {
    std::uint64_t seq = 0;
    bool was_empty = false;
    {
        std::lock_guard lock(mutex_);
        was_empty = queue_.empty();
        queue_.push_back(Queued{std::move(op), monotonic_now_ns()});
        seq = ++enqueued_seq_;
    }
    // The device thread only waits for work when the queue is empty.
    if (was_empty) {
        work_ready_.notify_one();
    }
    return seq;
}

std::uint64_t Stream::last_enqueued() const {
    std::lock_guard lock(mutex_);
    return enqueued_seq_;
}

void Stream::block_until(std::uint64_t seq) const {
    if (reached(seq)) {
        return;
    }
    std::unique_lock lock(mutex_);
    ++blocked_waiters_;
    op_done_.wait(lock, [&] { return reached(seq); });
    --blocked_waiters_;
}

// Returns the latest modeled end time of the dependencies (0 if none).
Nanos Stream::wait_for_dependencies(const std::vector<StreamPosition>& dependencies) const {
    Nanos ready_ns = 0;
    for (const StreamPosition& dependency : dependencies) {
        dependency.stream->block_until(dependency.seq);
        ready_ns = std::max(ready_ns, dependency.stream->last_end_ns());
    }
    return ready_ns;
}

void Stream::serve() {
    // Wake at the op's deadline, not up to 50 us later (the default timer slack): the device
    // finishes work on time.
    prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
    // Taken from the queue in batches, so that a host thread queueing many short ops and this
    // thread do not contend for the lock op by op.
    std::deque<Queued> batch;
    for (;;) {
        {
            std::unique_lock lock(mutex_);
            work_ready_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
            if (queue_.empty()) {
                return;
            }
            batch.swap(queue_);
        }
        for (Queued& next : batch) {
            execute(next);
        }
        batch.clear();
    }
}

void Stream::execute(Queued& next) {
    // Back to back: an op starts when its predecessor's modeled time ended, when it was queued,
    // when its dependencies ended, or when its copy engine is free, whichever is latest; late
    // wake-ups of this thread therefore do not accumulate.
    Nanos start_ns =
        std::max({last_end_ns_.load(), next.enqueued_ns, wait_for_dependencies(next.op.waits_for)});
    if (next.op.engine != nullptr) {
        start_ns = next.op.engine->reserve(start_ns, next.op.device_ns);
    }
    if (next.op.host_function && start_ns > monotonic_now_ns()) {
        sleep_until_ns(start_ns);
    }
    if (next.op.run) {
        next.op.run(start_ns);
    }
    const Nanos end_ns = next.op.host_function
                             ? std::max(start_ns + next.op.device_ns, monotonic_now_ns())
                             : start_ns + next.op.device_ns;
    if (end_ns > monotonic_now_ns()) {
        sleep_until_ns(end_ns);
    }
    last_end_ns_.store(end_ns);
    // Release the op's closures and dependencies before it counts as done. An event record
    // captured in the op refers back to this stream; once the stream is destroyed and idle, that
    // could otherwise be the last reference, and this thread would end up joining itself.
    next.op = DeviceOp{};
    completed_seq_.fetch_add(1);
    // A blocked waiter registers itself before checking completed_seq_ under the lock, so either
    // it sees the new value or it is counted here (both sequentially consistent).
    if (blocked_waiters_.load() > 0) {
        { std::lock_guard lock(mutex_); }
        op_done_.notify_all();
    }
}

}  // namespace fakecuda
