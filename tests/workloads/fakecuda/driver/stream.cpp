#include "stream.hpp"

#include <pthread.h>

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
    {
        std::lock_guard lock(mutex_);
        queue_.push_back(Queued{std::move(op), monotonic_now_ns()});
        seq = ++enqueued_seq_;
    }
    work_ready_.notify_one();
    return seq;
}

std::uint64_t Stream::last_enqueued() const {
    std::lock_guard lock(mutex_);
    return enqueued_seq_;
}

void Stream::block_until(std::uint64_t seq) const {
    std::unique_lock lock(mutex_);
    op_done_.wait(lock, [&] { return reached(seq); });
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
    for (;;) {
        Queued next;
        {
            std::unique_lock lock(mutex_);
            work_ready_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
            if (queue_.empty()) {
                return;
            }
            next = std::move(queue_.front());
            queue_.pop_front();
        }
        // Back to back: an op starts when its predecessor's modeled time ended, when it was
        // queued, or when its dependencies ended, whichever is latest; late wake-ups of this
        // thread therefore do not accumulate.
        const Nanos start_ns = std::max(
            {last_end_ns_.load(), next.enqueued_ns, wait_for_dependencies(next.op.waits_for)});
        if (next.op.run) {
            next.op.run(start_ns);
        }
        const Nanos end_ns = start_ns + next.op.device_ns;
        sleep_until_ns(end_ns);
        {
            std::lock_guard lock(mutex_);
            last_end_ns_.store(end_ns);
            completed_seq_.fetch_add(1);
        }
        op_done_.notify_all();
    }
}

}  // namespace fakecuda
