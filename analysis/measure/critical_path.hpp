#pragma once
// What removing a delay of the GPU-driving threads would save: each drain period of the device's
// queue (device_queue.hpp) replayed with the delay's time cut out of the host's timeline. The
// enqueues move earlier by the time removed before them; the device serves the period's work
// (FIFO, equal parts) from when each part is enqueued; the period ends when both the host has
// reached its drain and the device has finished. A delay while the queue was empty costs all of
// it; a delay hidden behind queued work costs only what the device then waited.
//
// The ranks of an NCCL job meet in their collectives (collective_meetings.hpp): a period that
// ends in one gains every rank what the removal brings the last rank's readiness forward, and a
// faster device does not shorten the time it waited for other ranks.
//
// The loop's speed-up is loop / (loop - saved). Periods whose device work is only estimated give
// the interval: their most likely work at its high end gives the low end, at its low end the high
// end (device_queue.hpp).

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "analysis/measure/device_queue.hpp"
#include "analysis/measure/interval_list.hpp"
#include "analysis/model/call_column.hpp"

namespace causeway::analysis {

// What to take away, per queue (same order as the queues): host time, and the device's work
// scaled by device_scale (0.5: a device twice as fast).
struct HostTimeRemoval {
    std::vector<IntervalList> per_queue;
    double device_scale = 1.0;
};

// The host time a replay removes from one queue's thread before each moment it asks about; the
// moments come mostly in order (a queue's periods, each one's enqueues, drain and device finish).
// Held as intervals (HostTimeRemoval), or read as it is made where a cause has too many intervals
// to hold (analysis/diagnose/own_compute_time.hpp).
class RemovedTimeSource {
  public:
    virtual ~RemovedTimeSource() = default;
    // Removed time in [0, ts_ns).
    virtual double before(std::int64_t ts_ns) = 0;
};
// Queue q's source, made for one replay; null where nothing is removed from its thread.
using RemovedTimeSources = std::function<std::unique_ptr<RemovedTimeSource>(std::size_t q)>;

struct SpeedupPrediction {
    std::int64_t loop_ns = 0;  // the loops the queues cover, summed
    std::int64_t saved_ns = 0;
    std::int64_t saved_low_ns = 0;   // with estimated periods at their most device work
    std::int64_t saved_high_ns = 0;  // with estimated periods at their least
    double speedup = 1.0;
    double speedup_low = 1.0;
    double speedup_high = 1.0;

    double saved_share() const {
        return loop_ns > 0 ? static_cast<double>(saved_ns) / static_cast<double>(loop_ns) : 0.0;
    }
};

// The queues' periods, replayed with host time removed. What they record (replayed with
// nothing removed) is replayed once, here; a period with nothing removed from it is not
// replayed again.
class CriticalPath {
  public:
    // The device's work in the periods where it is only estimated: its most likely, most or least.
    enum class Bound { kEstimate, kMostWork, kLeastWork };

    explicit CriticalPath(const std::vector<DeviceQueue>& queues);

    SpeedupPrediction predict(const HostTimeRemoval& removal) const;
    // The same, of host time `per_queue` (HostTimeRemoval::per_queue, held by the caller).
    SpeedupPrediction predict(const std::vector<IntervalList>& per_queue,
                              double device_scale) const;
    // The same, of the host time each queue's source gives, with the device's work as it was.
    SpeedupPrediction predict(const RemovedTimeSources& sources) const;

  private:
    // One period as recorded, by Bound: when the device finished its work, and the period's
    // replayed length. from_ns: the earliest moment its replay reads (its start, or an earlier
    // enqueue).
    struct Recorded {
        std::int64_t from_ns = 0;
        std::array<std::int64_t, 3> done_ns{};
        std::array<double, 3> span{};
    };
    // The same for one Bound.
    struct RecordedBound {
        std::int64_t done_ns = 0;
        double span = 0;
    };
    // The periods whose replay reads from before their start (an earlier enqueue), in order,
    // with the earliest moment each reads; every other one reads from its start.
    using ReadEarlier = std::vector<std::pair<std::size_t, std::int64_t>>;
    // One queue's periods as recorded, in 16 bytes a period where its device work is the same
    // for every Bound (measured: about half the periods of a trace), 48 where it is not. Read in
    // period order (RecordedReader).
    struct RecordedQueue {
        CallColumn<RecordedBound> estimate;  // per period: Bound::kEstimate
        // Per period whose work differs by Bound, in period order: kMostWork, kLeastWork.
        CallColumn<std::array<RecordedBound, 2>> other_bounds;
        ReadEarlier read_earlier;
    };
    class RecordedReader;

    // Replays periods [first, end) of `queue` as recorded, into `recorded`: its `estimate` sized
    // for every period, its `other_bounds` for every one whose work differs by Bound, from
    // `first_other` on. Returns the periods' read_earlier.
    static ReadEarlier record(const DeviceQueue& queue, std::size_t first, std::size_t end,
                              std::size_t first_other, RecordedQueue& recorded);

    SpeedupPrediction predict_with(const RemovedTimeSources& sources, double device_scale) const;
    // The time the removal saves, by Bound.
    std::array<double, 3> saved_by(const RemovedTimeSources& sources, double device_scale) const;

    const std::vector<DeviceQueue>& queues_;
    std::int64_t loop_ns_ = 0;
    std::vector<RecordedQueue> recorded_;  // per queue
};

// Sorts `intervals` and merges the ones that overlap (weights of one span add, up to 1).
void normalise_intervals(IntervalList& intervals);

}  // namespace causeway::analysis
