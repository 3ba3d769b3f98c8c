#pragma once
// Overlap of time segments of one thread with that thread's own off-CPU intervals: how much of
// a call (or of the gap between two calls) the thread spent preempted, waiting in the run queue
// after a wakeup, or asleep, and who had the CPU while it was preempted.

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "analysis/model/saturating.hpp"
#include "analysis/model/trace_model.hpp"

namespace causeway::analysis {

struct TimeSplit {
    std::int64_t total_ns = 0;
    std::int64_t preempted_ns = 0;    // off CPU while runnable (CPU contention)
    std::int64_t wakeup_wait_ns = 0;  // woken, waiting in the run queue (CPU contention)
    std::int64_t blocked_ns = 0;      // asleep: futex, pipe, I/O, sleep

    // Runnable but not running: the part CPU contention explains.
    std::int64_t runnable_waiting_ns() const {
        return saturating_add(preempted_ns, wakeup_wait_ns);
    }
    std::int64_t oncpu_ns() const {
        std::int64_t on = total_ns - preempted_ns - wakeup_wait_ns - blocked_ns;
        return on > 0 ? on : 0;
    }
    void add(const TimeSplit& other) {
        add_to(total_ns, other.total_ns);
        add_to(preempted_ns, other.preempted_ns);
        add_to(wakeup_wait_ns, other.wakeup_wait_ns);
        add_to(blocked_ns, other.blocked_ns);
    }
};

// Preempted time by the thread that got the CPU (thread index; -1: idle task or unknown).
using CompetitorTime = std::unordered_map<int, std::int64_t>;

// The asleep part of one off-CPU interval that fell inside a measured segment: the evidence
// for "who did it wait for" (the interval names its waker and what it slept in).
struct SleepOverlap {
    int thread_index = -1;  // the sleeper
    const OffCpuInterval* interval = nullptr;
    std::int64_t asleep_ns = 0;  // of the segment, before the wakeup
};

// Walks one thread's off-CPU intervals (sorted, disjoint) alongside segments asked for in
// increasing order, so a whole thread costs one pass.
class OffCpuCursor {
  public:
    explicit OffCpuCursor(const std::vector<OffCpuInterval>& intervals) : intervals_(intervals) {}

    // Splits [start_ns, end_ns); adds the preempted time by competitor to `competitors` and
    // each sleep to `sleeps` when given. Segments must not go backwards.
    TimeSplit measure(std::int64_t start_ns, std::int64_t end_ns, CompetitorTime* competitors,
                      std::vector<SleepOverlap>* sleeps = nullptr, int thread_index = -1);

  private:
    const std::vector<OffCpuInterval>& intervals_;
    std::size_t next_ = 0;
};

}  // namespace causeway::analysis
