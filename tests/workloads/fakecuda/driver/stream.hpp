#pragma once
// One stream of the emulated device: a FIFO queue of device ops served by its own device thread,
// which sleeps through each op's device time. Ops are numbered from 1 in enqueue order; an op is
// "reached" once the device thread has finished it.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "clock.hpp"
#include "dma_engine.hpp"

namespace fakecuda {

class Stream;

// The op numbered `seq` on `stream`. Holding one keeps the stream alive.
struct StreamPosition {
    std::shared_ptr<Stream> stream;
    std::uint64_t seq = 0;
};

struct DeviceOp {
    Nanos device_ns = 0;                      // how long the op occupies its stream
    std::vector<StreamPosition> waits_for;    // ops on other streams that must finish first
    std::function<void(Nanos start_ns)> run;  // the op's effect (moves bytes, stamps an event)
    DmaEngine* engine = nullptr;              // the copy engine a host<->device copy occupies
    // `run` is a host function (cuLaunchHostFunc): it runs when the op's turn comes, and the op
    // ends when it returns, however long it blocks.
    bool host_function = false;
};

class Stream {
  public:
    enum class Kind { kLegacyDefault, kBlocking, kNonBlocking };

    // Starts the device thread, named "fakecuda-s<id>".
    Stream(Kind kind, int id);
    // Lets the device thread finish every queued op, then joins it.
    ~Stream();
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;

    Kind kind() const { return kind_; }

    // Queues `op` and returns its number.
    std::uint64_t enqueue(DeviceOp op);
    std::uint64_t last_enqueued() const;
    bool reached(std::uint64_t seq) const { return completed_seq_.load() >= seq; }
    bool idle() const { return reached(last_enqueued()); }
    // Blocks the calling thread (no CPU) until op `seq` is finished.
    void block_until(std::uint64_t seq) const;
    // Modeled end time of the most recently finished op; 0 before the first.
    Nanos last_end_ns() const { return last_end_ns_.load(); }

  private:
    struct Queued {
        DeviceOp op;
        Nanos enqueued_ns;
    };

    void serve();
    void execute(Queued& next);
    Nanos wait_for_dependencies(const std::vector<StreamPosition>& dependencies) const;

    const Kind kind_;
    mutable std::mutex mutex_;
    std::condition_variable work_ready_;
    mutable std::condition_variable op_done_;
    std::deque<Queued> queue_;
    std::uint64_t enqueued_seq_ = 0;
    std::atomic<std::uint64_t> completed_seq_{0};
    std::atomic<Nanos> last_end_ns_{0};
    mutable std::atomic<int> blocked_waiters_{0};  // threads inside block_until
    bool stopping_ = false;
    std::thread device_thread_;  // last: starts after everything above is constructed
};

}  // namespace fakecuda
