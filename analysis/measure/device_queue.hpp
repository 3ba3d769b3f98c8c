#pragma once
// The device's queue as the calls of one GPU-driving thread show it, without device timestamps.
//
// What the calls say:
//  * Work enters the queue when a launch or a copy returns (the call's own time is the host's), or
//    by the moment it was first preempted inside: its own host work, microseconds on a CPU, was
//    most likely done by then.
//  * The queue is known empty when a synchronising call returns: a stream, device or event
//    synchronisation, a blocking copy (cudaMemcpy, cuMemcpyHtoD/DtoH) or a free that waits for the
//    device (cudaFree, cuMemFree). These "drains" cut the
//    thread's loop into periods: from one drain to the next, the device starts empty, gets the
//    period's enqueues and is empty again at its end.
//  * A drain that waited (on a CPU or asleep longer than its own cost) and kept its CPU ends when
//    the device finished: the device's work of the period is then measured, given the enqueue
//    times. A drain that returned at once says the device was done before it was called: its
//    work is bounded above. A drain that lost its CPU (runnable but not running inside it) was
//    still waiting whenever it was seen on a CPU or asleep, and returned soon after it last got
//    its CPU back: the device finished between the two (or at the wakeup that ended its last
//    sleep, when the device's completion woke it).
// What they cannot say: how the period's work splits among its kernels (taken as equal parts, in
// FIFO order on one queue per thread), whether other streams or processes shared the device, and
// when exactly the device ran dry inside a period whose drain did not wait.

#include <cstdint>
#include <vector>

#include "analysis/measure/drain_periods.hpp"
#include "analysis/measure/period_bounds.hpp"
#include "analysis/model/compact_column.hpp"
#include "analysis/model/trace_filter.hpp"
#include "analysis/model/trace_model.hpp"

namespace causeway::analysis {

// A drain waited for the device when its time on a CPU or asleep exceeded its own cost by at
// least this much; it lost its CPU when it was runnable but not running for this long.
// (A synchronisation's own cost jitters by tens of microseconds; a device wait that matters is
// longer.)
inline constexpr std::int64_t kDrainWaitMarginNs = 50'000;
// ... and by this share of the time the host was away from the queue before it (from its last
// enqueue, or the period's start, to the drain's entry; in a drain that lost its CPU, its last
// time off it): a thread back from a long absence runs its first calls slower by tens of
// microseconds (cold caches), which is no device still working.
inline constexpr double kDrainWaitShareOfAway = 0.01;
// The measured periods stand for the others only when there are at least this many of them, and
// at least kMinMeasuredShare of the periods.
inline constexpr std::int64_t kMinMeasuredPeriods = 3;
inline constexpr double kMinMeasuredShare = 0.05;
// The most a synchronisation costs the host when the device is already done.
inline constexpr std::int64_t kSyncOwnMaxNs = 20'000;

// What the collectives of an NCCL job (analysis/measure/collective_meetings.hpp) say of a period.
// Only the queues of a job's ranks hold them, beside their periods: a period of a 100M-call trace
// is one of millions.
struct PeriodMeeting {
    // Of the device's work, the time it waited in the period's collectives for other ranks to
    // arrive: no faster device shortens it.
    std::int64_t peer_wait_ns = 0;
    // The last collective of the period that every rank's period holds as its last (its number
    // among the trace's such collectives; -1: none), and this rank's arrival at it (its enqueue):
    // no rank's period ends before the last rank has arrived.
    std::int32_t meeting = -1;
    std::int64_t arrival_ns = 0;
};

struct DeviceQueue {
    int thread_index = -1;
    TimeColumn enqueue_ns;  // returns of the enqueuing calls, in time order
    DrainPeriods periods;   // in time order
    // One per period while the queue is measured (reconstruct_queue, then mark_collectives),
    // dropped before the queues are replayed: empty once forget_bounds() has run.
    PeriodBoundsList bounds;
    // One per period where the thread is an NCCL rank's whose collectives met (mark_collectives);
    // empty otherwise.
    std::vector<PeriodMeeting> meetings;
    std::int64_t waited_periods = 0;

    // From the first period's start to the last drain: the loop the predictions are about. It
    // begins with the thread's first step (loop_steps.hpp): the periods that ended before it are
    // set-up, paid once, and not kept.
    std::int64_t loop_ns() const {
        return periods.empty() ? 0 : periods.back().drain_ns - periods.front().start_ns;
    }
    // Device work of the loop (DrainPeriod::device_ns summed), less its waits for other ranks.
    std::int64_t device_busy_ns() const;
    // What period k's drain says of its work (k < bounds.size()).
    PeriodBounds bounds_of(std::size_t k) const { return bounds.at(k, periods[k].drain_ns); }
    // What the collectives say of period k: nothing (no meeting, no wait) where none met.
    const PeriodMeeting& meeting_of(std::size_t k) const {
        static const PeriodMeeting kNone;
        return meetings.empty() ? kNone : meetings[k];
    }
};

// Measures the work of period `k` of `queue` by when its device finished, known from elsewhere (a
// collective ends on every rank at once: collective_meetings.hpp), within the period's bounds.
void set_device_done(DeviceQueue& queue, std::size_t k, std::int64_t done_ns);

// Drops the queues' PeriodBounds once they are measured: a 100M-call trace's queue holds millions
// of periods, and the replay reads none of them.
void forget_bounds(std::vector<DeviceQueue>& queues);

// The queue of `thread_index`'s accounted calls in `filter`.
DeviceQueue reconstruct_queue(const TraceModel& model, const ResolvedFilter& filter,
                              int thread_index);

// The index in `queues` of thread `thread_index`'s queue, or -1.
int queue_of_thread(const std::vector<DeviceQueue>& queues, int thread_index);

// Whether calls of `op` put work on the device's queue, or wait for it to drain.
bool enqueues_work(const OpInfo& op);
bool drains_queue(const OpInfo& op);

}  // namespace causeway::analysis
