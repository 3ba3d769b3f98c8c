#include "analysis/measure/critical_path.hpp"

#include <algorithm>
#include <array>
#include <future>
#include <iterator>
#include <limits>
#include <utility>

namespace causeway::analysis {

using Bound = CriticalPath::Bound;

namespace {

// Time removed from one thread's timeline before a moment: sums over its intervals. The moments
// come mostly in order (a queue's periods, each one's enqueues, drain and device finish), so each
// is found by stepping on (or back) from the last: the cost of the intervals passed, not a search
// each. Of the sums of the intervals before each one, only every kStride-th is kept (a list can
// hold an interval per call); the others of the cursor's block are added up again from it, in
// the same order, to the same doubles.
class RemovedTime final : public RemovedTimeSource {
    static constexpr std::size_t kStride = 64;

  public:
    explicit RemovedTime(const IntervalList& intervals) : intervals_(intervals) {
        kept_.reserve(intervals.size() / kStride + 1);
        double sum = 0;
        for (std::size_t k = 0; k < intervals.size(); ++k) {
            if (k % kStride == 0) {
                kept_.push_back(sum);
            }
            sum = add(sum, k);
        }
    }

    double before(std::int64_t ts_ns) override {
        if (!placed_) {
            k_ = static_cast<std::size_t>(std::partition_point(intervals_.begin(), intervals_.end(),
                                                               [ts_ns](const WeightedInterval& i) {
                                                                   return i.start_ns < ts_ns;
                                                               }) -
                                          intervals_.begin());
            placed_ = true;
        }
        while (k_ < intervals_.size() && intervals_.start_ns(k_) < ts_ns) {
            ++k_;
        }
        while (k_ > 0 && intervals_.start_ns(k_ - 1) >= ts_ns) {
            --k_;
        }
        if (k_ == 0) {
            return 0;
        }
        const WeightedInterval last = intervals_[k_ - 1];
        double partial =
            last.weight * static_cast<double>(std::min(ts_ns, last.end_ns) - last.start_ns);
        return sum_of_first(k_ - 1) + partial;
    }

  private:
    double add(double sum, std::size_t k) const {
        const WeightedInterval& i = intervals_[k];
        return sum + i.weight * static_cast<double>(i.end_ns - i.start_ns);
    }

    // The removed time of intervals [0, k): from the sums of k's block of kStride intervals,
    // added up from the block's kept sum when the cursor enters it.
    double sum_of_first(std::size_t k) {
        const std::size_t block = k / kStride;
        if (block != block_) {
            block_ = block;
            const std::size_t first = block * kStride;
            const std::size_t count = std::min(kStride, intervals_.size() - first);
            double sum = kept_[block];
            for (std::size_t j = 0; j < count; ++j) {
                sums_[j] = sum;
                sum = add(sum, first + j);
            }
        }
        return sums_[k - block * kStride];
    }

    const IntervalList& intervals_;
    std::vector<double> kept_;  // for each block b, the sum of intervals [0, b * kStride)
    std::size_t k_ = 0;         // the first interval that starts at or after the last moment
    bool placed_ = false;
    std::size_t block_ = std::numeric_limits<std::size_t>::max();  // whose sums_ are held
    std::array<double, kStride> sums_{};  // the sums of [0, k) for each k of block_
};

constexpr std::array<Bound, 3> kBounds = {Bound::kEstimate, Bound::kMostWork, Bound::kLeastWork};
template <class T>
using PerBound = std::array<T, kBounds.size()>;

std::int64_t device_work(const DrainPeriod& p, Bound bound) {
    switch (bound) {
        case Bound::kEstimate:
            break;
        case Bound::kMostWork:
            return p.device_high_ns;
        case Bound::kLeastWork:
            return p.device_low_ns;
    }
    return p.device_ns;
}

// When the device finishes each of `works` (ns, relative to the period's start) when part i of
// it, in equal parts, is enqueued at enqueued(i): a FIFO of one queue.
template <class Enqueued>
PerBound<double> fifo_finish(const DrainPeriod& p, const PerBound<double>& works,
                             Enqueued enqueued) {
    PerBound<double> finish{};
    PerBound<double> part{};
    for (std::size_t b = 0; b < kBounds.size(); ++b) {
        part[b] = works[b] / static_cast<double>(std::max<std::uint32_t>(p.enqueues, 1));
    }
    for (std::uint32_t i = 0; i < p.enqueues; ++i) {
        const double at = enqueued(i);
        for (std::size_t b = 0; b < kBounds.size(); ++b) {
            finish[b] = std::max(finish[b], at + part[b] * static_cast<double>(p.enqueues - i));
        }
    }
    return finish;
}

PerBound<double> device_works(const DrainPeriod& p) {
    PerBound<double> works{};
    for (std::size_t b = 0; b < kBounds.size(); ++b) {
        works[b] = static_cast<double>(device_work(p, kBounds[b]));
    }
    return works;
}

// When the device finished the period's work as recorded, between the drain's entry and return.
PerBound<std::int64_t> recorded_done_ns(const DeviceQueue& queue, const DrainPeriod& p) {
    const PerBound<double> finish = fifo_finish(p, device_works(p), [&](std::uint32_t i) {
        return static_cast<double>(queue.enqueue_ns[p.first_enqueue + i] - p.start_ns);
    });
    PerBound<std::int64_t> done{};
    for (std::size_t b = 0; b < kBounds.size(); ++b) {
        done[b] = std::clamp(p.start_ns + static_cast<std::int64_t>(finish[b]), p.drain_entry_ns,
                             p.drain_ns);
    }
    return done;
}

// The period's length with `removed` cut out of the host's time and the device's work scaled,
// by Bound; `done_ns`: recorded_done_ns().
PerBound<double> replayed_span(const DeviceQueue& queue, std::size_t k,
                               const PerBound<std::int64_t>& done_ns, RemovedTimeSource& removed,
                               double device_scale) {
    const DrainPeriod& p = queue.periods[k];
    const double removed_at_start = removed.before(p.start_ns);
    auto moved = [&](std::int64_t ts_ns, double removed_before) {
        return static_cast<double>(ts_ns - p.start_ns) - (removed_before - removed_at_start);
    };
    const PerBound<double> works = device_works(p);
    PerBound<double> scaled{};
    for (std::size_t b = 0; b < kBounds.size(); ++b) {
        // Waiting for other ranks is no work a faster device shortens.
        const double peer_wait =
            std::min(static_cast<double>(queue.meeting_of(k).peer_wait_ns), works[b]);
        scaled[b] = (works[b] - peer_wait) * device_scale + peer_wait;
    }
    const PerBound<double> finish = fifo_finish(p, scaled, [&](std::uint32_t i) {
        const std::int64_t ts_ns = queue.enqueue_ns[p.first_enqueue + i];
        return moved(ts_ns, removed.before(ts_ns));
    });
    const double removed_at_drain_entry = removed.before(p.drain_entry_ns);
    const double moved_drain_entry = moved(p.drain_entry_ns, removed_at_drain_entry);
    const double removed_at_drain = removed.before(p.drain_ns);
    PerBound<double> span{};
    for (std::size_t b = 0; b < kBounds.size(); ++b) {
        const double removed_at_done = removed.before(done_ns[b]);
        // The drain returns once the host has reached it and the device is done, plus whatever
        // the host spent in it after both (its own cost, a blocking copy's staging, time it lost
        // its CPU), less what of that is removed; what it lost while the device still worked was
        // hidden.
        const double after_done =
            static_cast<double>(p.drain_ns - done_ns[b]) - (removed_at_drain - removed_at_done);
        // The CPU that others took from the drain while the device still worked was hidden, not
        // free: they needed it. What of it is not removed must still fit in the drain's wait;
        // what no longer fits (a faster device, earlier enqueues) is taken from the host
        // elsewhere.
        const double hidden =
            std::max<double>(0.0, static_cast<double>(p.drain_runnable_ns) -
                                      static_cast<double>(p.drain_ns - done_ns[b]));
        const double owed = std::max(0.0, hidden - (removed_at_done - removed_at_drain_entry));
        const double wait = std::max(0.0, finish[b] - moved_drain_entry);
        span[b] = std::max(finish[b], moved_drain_entry) + std::max(0.0, after_done) +
                  std::max(0.0, owed - wait);
    }
    return span;
}

// The ranks that meet in one collective (collective_meetings.hpp): the last one's arrival, and
// when the last of them would be ready with the removal (each arrival less its rank's saving).
struct Meeting {
    double last_arrival_ns = 0;
    double ready_ns = 0;
    bool seen = false;

    void add(double arrival_ns, double saved_ns) {
        last_arrival_ns = seen ? std::max(last_arrival_ns, arrival_ns) : arrival_ns;
        ready_ns = seen ? std::max(ready_ns, arrival_ns - saved_ns) : arrival_ns - saved_ns;
        seen = true;
    }
    // What each rank's period gains: the job's step ends when its last rank is ready.
    double saved_ns() const { return std::max(0.0, last_arrival_ns - ready_ns); }
};

double speedup_of(std::int64_t loop_ns, std::int64_t saved_ns) {
    const std::int64_t left = loop_ns - saved_ns;
    return left > 0 ? static_cast<double>(loop_ns) / static_cast<double>(left) : 1.0;
}

std::int64_t loops_ns(const std::vector<DeviceQueue>& queues) {
    std::int64_t loop_ns = 0;
    for (const DeviceQueue& queue : queues) {
        add_to(loop_ns, queue.loop_ns());
    }
    return loop_ns;
}

// normalise_intervals() for intervals already in order and disjoint, each of a weight the sweep
// keeps as it is (in (0, 1]): merges the ones that touch with equal weights, in place. False,
// changing nothing, for any other list.
bool merge_in_order(IntervalList& intervals) {
    std::int64_t previous_end_ns = std::numeric_limits<std::int64_t>::min();
    for (const WeightedInterval& i : intervals) {
        if (i.end_ns <= i.start_ns || !(i.weight > 1e-9 && i.weight <= 1.0) ||
            i.start_ns < previous_end_ns) {
            return false;
        }
        previous_end_ns = i.end_ns;
    }
    std::size_t kept = 0;
    for (std::size_t i = 1; i < intervals.size(); ++i) {
        const WeightedInterval last = intervals[kept];
        const WeightedInterval next = intervals[i];
        if (last.end_ns == next.start_ns && last.weight == next.weight) {
            intervals.set(kept, {last.start_ns, next.end_ns, last.weight});
        } else if (++kept != i) {  // else it is where it was
            intervals.set(kept, next);
        }
    }
    if (!intervals.empty()) {
        intervals.truncate(kept + 1);
    }
    return true;
}

}  // namespace

void normalise_intervals(IntervalList& intervals) {
    if (merge_in_order(intervals)) {
        return;
    }
    // A sweep over the ends: the weight in force between two of them is the sum of the
    // intervals that cover that stretch.
    std::vector<std::pair<std::int64_t, double>> edges;
    edges.reserve(intervals.size() * 2);
    for (const WeightedInterval& i : intervals) {
        if (i.end_ns > i.start_ns && i.weight > 0) {
            edges.emplace_back(i.start_ns, i.weight);
            edges.emplace_back(i.end_ns, -i.weight);
        }
    }
    // At one moment, the ends before the starts: an interval that ends where another begins
    // hands over its weight exactly.
    std::sort(edges.begin(), edges.end());
    IntervalList merged;
    double weight = 0;
    for (std::size_t e = 0; e < edges.size(); ++e) {
        weight += edges[e].second;
        const bool last_at_this_time =
            e + 1 == edges.size() || edges[e + 1].first != edges[e].first;
        if (!last_at_this_time || e + 1 == edges.size() || weight <= 1e-9) {
            continue;
        }
        const double w = std::min(weight, 1.0);
        if (!merged.empty() && merged.back().end_ns == edges[e].first &&
            merged.back().weight == w) {
            merged.set(merged.size() - 1, {merged.back().start_ns, edges[e + 1].first, w});
        } else {
            merged.push_back({edges[e].first, edges[e + 1].first, w});
        }
    }
    intervals = std::move(merged);
}

// Reads one queue's recorded periods, in period order.
class CriticalPath::RecordedReader {
  public:
    explicit RecordedReader(const RecordedQueue& recorded) : recorded_(recorded) {}

    // Period k, the one after the last read, of the queue.
    Recorded next(std::size_t k, const DrainPeriod& p) {
        Recorded r;
        const RecordedBound& estimate = recorded_.estimate[k];
        r.done_ns.fill(estimate.done_ns);
        r.span.fill(estimate.span);
        if (!p.one_work()) {
            const auto& others = recorded_.other_bounds[next_other_++];
            for (std::size_t b = 1; b < kBounds.size(); ++b) {
                r.done_ns[b] = others[b - 1].done_ns;
                r.span[b] = others[b - 1].span;
            }
        }
        const auto& earlier = recorded_.read_earlier;
        r.from_ns = next_earlier_ < earlier.size() && earlier[next_earlier_].first == k
                        ? earlier[next_earlier_++].second
                        : p.start_ns;
        return r;
    }

  private:
    const RecordedQueue& recorded_;
    std::size_t next_other_ = 0;
    std::size_t next_earlier_ = 0;
};

CriticalPath::CriticalPath(const std::vector<DeviceQueue>& queues) : queues_(queues) {
    // Enough periods to be worth a thread of their own (a 100M-call trace has 8M).
    constexpr std::size_t kPeriodsBeside = std::size_t{1} << 16;
    loop_ns_ = loops_ns(queues);
    recorded_.resize(queues.size());
    for (std::size_t q = 0; q < queues.size(); ++q) {
        const DrainPeriods& periods = queues[q].periods;
        RecordedQueue& recorded = recorded_[q];
        // Each period's replay is its own: the periods from `split` on beside the ones before.
        const std::size_t count = periods.size();
        const std::size_t split = count >= kPeriodsBeside ? count / 2 : count;
        auto others_in = [&](std::size_t first, std::size_t end) {
            return static_cast<std::size_t>(
                std::count_if(periods.begin() + static_cast<std::ptrdiff_t>(first),
                              periods.begin() + static_cast<std::ptrdiff_t>(end),
                              [](const DrainPeriod& p) { return !p.one_work(); }));
        };
        const std::size_t others_before_split = others_in(0, split);
        recorded.estimate.resize(count);
        recorded.other_bounds.resize(others_before_split + others_in(split, count));
        std::future<ReadEarlier> second;
        if (split < count) {
            second = std::async(std::launch::async, [&] {
                return record(queues[q], split, count, others_before_split, recorded);
            });
        }
        recorded.read_earlier = record(queues[q], 0, split, 0, recorded);
        if (second.valid()) {
            const auto later = second.get();
            recorded.read_earlier.insert(recorded.read_earlier.end(), later.begin(), later.end());
        }
    }
}

CriticalPath::ReadEarlier CriticalPath::record(const DeviceQueue& queue, std::size_t first,
                                               std::size_t end, std::size_t first_other,
                                               RecordedQueue& recorded) {
    static const IntervalList kNothing;
    RemovedTime none(kNothing);
    ReadEarlier read_earlier;
    std::size_t other = first_other;
    for (std::size_t k = first; k < end; ++k) {
        const DrainPeriod& p = queue.periods[k];
        std::int64_t from_ns = p.start_ns;
        for (std::uint32_t i = 0; i < p.enqueues; ++i) {
            from_ns = std::min(from_ns, queue.enqueue_ns[p.first_enqueue + i]);
        }
        if (from_ns < p.start_ns) {
            read_earlier.emplace_back(k, from_ns);
        }
        const PerBound<std::int64_t> done_ns = recorded_done_ns(queue, p);
        const PerBound<double> span = replayed_span(queue, k, done_ns, none, 1.0);
        recorded.estimate[k] = {done_ns[0], span[0]};
        if (!p.one_work()) {
            recorded.other_bounds[other++] = {RecordedBound{done_ns[1], span[1]},
                                              RecordedBound{done_ns[2], span[2]}};
        }
    }
    return read_earlier;
}

std::array<double, 3> CriticalPath::saved_by(const RemovedTimeSources& sources,
                                             double device_scale) const {
    static const IntervalList kNothing;
    PerBound<double> saved{};
    std::vector<PerBound<Meeting>> meetings;
    for (std::size_t q = 0; q < queues_.size(); ++q) {
        std::unique_ptr<RemovedTimeSource> source = sources(q);
        if (!source) {
            source = std::make_unique<RemovedTime>(kNothing);
        }
        RemovedTimeSource& removed = *source;
        RecordedReader recorded(recorded_[q]);
        const auto& periods = queues_[q].periods;
        for (std::size_t k = 0; k < periods.size(); ++k) {
            const DrainPeriod& p = periods[k];
            const Recorded r = recorded.next(k, p);
            // A period with nothing removed from it replays as recorded.
            PerBound<double> gain{};
            if (device_scale != 1.0 || removed.before(r.from_ns) != removed.before(p.drain_ns)) {
                const PerBound<double> span =
                    replayed_span(queues_[q], k, r.done_ns, removed, device_scale);
                for (std::size_t b = 0; b < kBounds.size(); ++b) {
                    gain[b] = r.span[b] - span[b];
                }
            }
            const PeriodMeeting& meeting = queues_[q].meeting_of(k);
            if (meeting.meeting < 0) {
                for (std::size_t b = 0; b < kBounds.size(); ++b) {
                    saved[b] += gain[b];
                }
                continue;
            }
            const auto m = static_cast<std::size_t>(meeting.meeting);
            meetings.resize(std::max(meetings.size(), m + 1));
            for (std::size_t b = 0; b < kBounds.size(); ++b) {
                meetings[m][b].add(static_cast<double>(meeting.arrival_ns), gain[b]);
            }
        }
    }
    for (std::size_t q = 0; q < queues_.size(); ++q) {
        for (const PeriodMeeting& p : queues_[q].meetings) {
            for (std::size_t b = 0; b < kBounds.size(); ++b) {
                saved[b] += p.meeting < 0
                                ? 0.0
                                : meetings[static_cast<std::size_t>(p.meeting)][b].saved_ns();
            }
        }
    }
    return saved;
}

SpeedupPrediction CriticalPath::predict(const HostTimeRemoval& removal) const {
    return predict(removal.per_queue, removal.device_scale);
}

SpeedupPrediction CriticalPath::predict(const std::vector<IntervalList>& per_queue,
                                        double device_scale) const {
    return predict_with(
        [&](std::size_t q) -> std::unique_ptr<RemovedTimeSource> {
            if (q >= per_queue.size()) {
                return nullptr;
            }
            return std::make_unique<RemovedTime>(per_queue[q]);
        },
        device_scale);
}

SpeedupPrediction CriticalPath::predict(const RemovedTimeSources& sources) const {
    return predict_with(sources, 1.0);
}

SpeedupPrediction CriticalPath::predict_with(const RemovedTimeSources& sources,
                                             double device_scale) const {
    SpeedupPrediction prediction;
    prediction.loop_ns = loop_ns_;
    auto clamp_saved = [&](double saved) {
        return std::clamp<std::int64_t>(static_cast<std::int64_t>(saved), 0, prediction.loop_ns);
    };
    const PerBound<double> saved = saved_by(sources, device_scale);
    auto saved_with = [&](Bound bound) {
        return clamp_saved(saved[static_cast<std::size_t>(bound)]);
    };
    prediction.saved_ns = saved_with(Bound::kEstimate);
    // Less device work leaves more of a host delay exposed, so the high end of a host removal
    // comes with the least work in the estimated periods; a faster device gains most with the
    // most work.
    const bool host = device_scale == 1.0;
    const std::int64_t with_most = saved_with(Bound::kMostWork);
    const std::int64_t with_least = saved_with(Bound::kLeastWork);
    prediction.saved_low_ns = std::min({host ? with_most : with_least, prediction.saved_ns});
    prediction.saved_high_ns = std::max({host ? with_least : with_most, prediction.saved_ns});
    prediction.speedup = speedup_of(prediction.loop_ns, prediction.saved_ns);
    prediction.speedup_low = speedup_of(prediction.loop_ns, prediction.saved_low_ns);
    prediction.speedup_high = speedup_of(prediction.loop_ns, prediction.saved_high_ns);
    return prediction;
}

}  // namespace causeway::analysis
