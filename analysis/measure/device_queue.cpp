#include "analysis/measure/device_queue.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>

#include "analysis/measure/distribution.hpp"
#include "analysis/measure/loop_steps.hpp"
#include "analysis/measure/offcpu_overlap.hpp"

namespace causeway::analysis {
namespace {

// A copy or free without Async in its name (cudaMemcpy, cuMemcpyDtoH_v2, cudaFree, cuMemFree):
// it returns only once the device is done.
bool waits_for_device(const OpInfo& op) {
    return (op.category == OpCategory::kCopy || op.category == OpCategory::kFree) &&
           op.name.find("Async") == std::string::npos;
}

// The least work that, queued at enqueue_ns[first ..] (n of them, in order) in equal parts,
// finishes at `done_ns`: a FIFO of n equal parts s = W/n finishes at max_i(e_i + (n - i) s), so
// the W that brings the first of those terms to done_ns.
std::int64_t work_finishing_at(const TimeColumn& enqueue_ns, std::uint32_t first, std::uint32_t n,
                               std::int64_t done_ns) {
    if (n == 0) {
        return 0;
    }
    double least = std::numeric_limits<double>::max();
    for (std::uint32_t i = 0; i < n; ++i) {
        double parts_left = static_cast<double>(n - i);
        least = std::min(
            least, static_cast<double>(std::max<std::int64_t>(done_ns - enqueue_ns[first + i], 0)) *
                       static_cast<double>(n) / parts_left);
    }
    return static_cast<std::int64_t>(least);
}

// `ns` of device work, within what the period's drain says of it.
std::int64_t within_bounds(const PeriodBounds& bounds, std::int64_t ns) {
    return std::clamp(ns, bounds.device_min_ns,
                      std::max(bounds.device_min_ns, bounds.device_max_ns));
}

// Whether a drain waited for the device: its time on a CPU or asleep, `on_cpu_ns`, exceeded its
// op's own cost by the margin and by the share of the time the host was away before it.
bool waited_for_device(std::int64_t on_cpu_ns, std::int64_t own_ns, std::int64_t away_ns) {
    return static_cast<double>(on_cpu_ns) >
           static_cast<double>(own_ns + kDrainWaitMarginNs) +
               kDrainWaitShareOfAway * static_cast<double>(away_ns);
}

// A drain's time runnable but not running, for each drain of a thread in turn.
class DrainRunnable {
  public:
    explicit DrainRunnable(const std::vector<OffCpuInterval>& intervals) : cursor_(intervals) {}
    std::int64_t operator()(const TraceModel& model, std::uint32_t call) {
        return cursor_.measure(model.calls.ts_ns[call], model.calls.end_ns(call), nullptr)
            .runnable_waiting_ns();
    }

  private:
    OffCpuCursor cursor_;
};

// What a first pass over a thread's calls finds: how many drain and how many enqueue, and per
// drain op its own cost, the least time one of its calls spent on a CPU or asleep (a drain with
// nothing left to wait for; its time runnable but not running excluded).
struct DrainsSeen {
    std::size_t drains = 0;
    std::size_t enqueues = 0;
    std::map<int, std::int64_t> own_ns;
};

DrainsSeen see_drains(const TraceModel& model, const AccountedCalls& calls,
                      const std::vector<OffCpuInterval>& intervals) {
    DrainsSeen seen;
    DrainRunnable runnable(intervals);
    for (std::uint32_t call : calls) {
        const int op_index = model.calls.op_index[call];
        const OpInfo& op = model.ops[static_cast<std::size_t>(op_index)];
        if (drains_queue(op)) {
            ++seen.drains;
            const std::int64_t kept_cpu_ns = model.calls.dur_ns[call] - runnable(model, call);
            auto [at, first] = seen.own_ns.try_emplace(op_index, kept_cpu_ns);
            if (!first) {
                at->second = std::min(at->second, kept_cpu_ns);
            }
        } else if (enqueues_work(op)) {
            ++seen.enqueues;
        }
    }
    // Every call of a synchronisation may have waited: its own cost is the API's, a few
    // microseconds on real hardware, never more than kSyncOwnMaxNs.
    for (auto& [op, ns] : seen.own_ns) {
        if (model.ops[static_cast<std::size_t>(op)].category == OpCategory::kSync) {
            ns = std::min(ns, kSyncOwnMaxNs);
        }
    }
    return seen;
}

// The work that the most of a set of periods' ranges hold ([mins[i], maxes[i]], sorted apart,
// ascending): the middle of the lowest stretch that as many of them cover as any stretch does.
// Where each period carries the same work, that work lies in every range but an outlier's; the
// middle of a looser range is pulled toward its longer side (a drain that lost its CPU waits far
// longer for it after the device is done than it spun before).
std::int64_t most_covered(const std::vector<std::int64_t>& mins,
                          const std::vector<std::int64_t>& maxes) {
    std::int64_t covered_most = -1;
    std::int64_t middle = mins.front();
    for (std::size_t i = 0; i < mins.size(); ++i) {
        if (i + 1 < mins.size() && mins[i + 1] == mins[i]) {
            continue;  // the stretch starts once all the ranges that start here are counted
        }
        const auto first_end = std::lower_bound(maxes.begin(), maxes.end(), mins[i]);
        const auto covering = static_cast<std::int64_t>(i + 1) - (first_end - maxes.begin());
        if (covering > covered_most) {
            covered_most = covering;
            middle = mins[i] + (*first_end - mins[i]) / 2;
        }
    }
    return middle;
}

// What periods with the same number of enqueues, taken to carry the same work, say of it together:
// each one's range narrows the others'.
struct CommonWork {
    // The range: from the 90th percentile of their least work to the 10th percentile of their
    // most (robust to a few periods that did differ).
    std::int64_t least = 0;
    std::int64_t most = 0;
    std::int64_t likeliest = 0;  // within it, the work most of their ranges hold (most_covered)
};

// Where too few periods were measured: the common work of the periods of each number of enqueues.
// Nothing where the range is empty: the work varied.
std::map<std::uint32_t, CommonWork> common_work(const DeviceQueue& queue) {
    std::map<std::uint32_t, std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>>> by;
    for (std::size_t k = 0; k < queue.periods.size(); ++k) {
        const DrainPeriod p = queue.periods[k];
        const PeriodBounds b = queue.bounds.at(k, p.drain_ns);
        auto& [mins, maxes] = by[p.enqueues];
        mins.push_back(b.device_min_ns);
        maxes.push_back(std::max(b.device_min_ns, b.device_max_ns));
    }
    std::map<std::uint32_t, CommonWork> common;
    for (auto& [enqueues, bounds] : by) {
        auto& [mins, maxes] = bounds;
        std::sort(mins.begin(), mins.end());
        std::sort(maxes.begin(), maxes.end());
        const std::int64_t likeliest = most_covered(mins, maxes);  // before percentile reorders
        const std::int64_t least = percentile(mins, 90);
        const std::int64_t most = percentile(maxes, 10);
        if (least <= most) {
            common[enqueues] = {
                .least = least, .most = most, .likeliest = std::clamp(likeliest, least, most)};
        }
    }
    return common;
}

// Periods whose drain did not show the device's finish, from the measured ones
// (DrainPeriod::device_ns), else from the common work of periods like them.
void estimate_unmeasured_periods(DeviceQueue& queue) {
    std::vector<std::int64_t> measured;
    measured.reserve(static_cast<std::size_t>(queue.waited_periods));  // millions: not grown
    for (const DrainPeriod& p : queue.periods) {
        if (p.waited) {
            measured.push_back(p.device_ns);
        }
    }
    const bool none = static_cast<std::int64_t>(measured.size()) < kMinMeasuredPeriods ||
                      static_cast<double>(measured.size()) <
                          kMinMeasuredShare * static_cast<double>(queue.periods.size());
    const std::int64_t median = none ? 0 : percentile(measured, 50);
    const std::int64_t low = none ? 0 : percentile(measured, 10);
    const std::int64_t high = none ? 0 : percentile(measured, 90);
    const auto common = none ? common_work(queue) : std::map<std::uint32_t, CommonWork>{};
    for (std::size_t k = 0; k < queue.periods.size(); ++k) {
        DrainPeriod p = queue.periods[k];
        const PeriodBounds b = queue.bounds.at(k, p.drain_ns);
        auto within = [&b](std::int64_t ns) { return within_bounds(b, ns); };
        if (p.waited) {
            p.device_low_ns = p.device_high_ns = p.device_ns;
        } else if (none) {
            const auto like = common.find(p.enqueues);
            const CommonWork work =
                like != common.end()
                    ? like->second
                    : CommonWork{.least = b.device_min_ns,
                                 .most = b.device_max_ns,
                                 .likeliest = std::midpoint(b.device_min_ns, b.device_max_ns)};
            p.device_ns = within(work.likeliest);
            p.device_low_ns = within(work.least);
            p.device_high_ns = within(work.most);
        } else {
            p.device_ns = within(median);
            p.device_low_ns = within(low);
            p.device_high_ns = within(high);
        }
        queue.periods.set(k, p);
    }
}

// The first of one thread's off-CPU intervals (sorted, disjoint) that ends after a moment, for
// moments that come mostly in order (its calls' entries): found by stepping on, or back, from
// the last instead of a search each.
class FirstEndingAfter {
  public:
    explicit FirstEndingAfter(const std::vector<OffCpuInterval>& intervals)
        : intervals_(intervals) {}

    std::vector<OffCpuInterval>::const_iterator operator()(std::int64_t ts_ns) {
        while (next_ < intervals_.size() && intervals_[next_].end_ns() <= ts_ns) {
            ++next_;
        }
        while (next_ > 0 && intervals_[next_ - 1].end_ns() > ts_ns) {
            --next_;
        }
        return intervals_.begin() + static_cast<std::ptrdiff_t>(next_);
    }
    std::vector<OffCpuInterval>::const_iterator end() const { return intervals_.end(); }

  private:
    const std::vector<OffCpuInterval>& intervals_;
    std::size_t next_ = 0;
};

// What a drain that lost its CPU says about when the device finished. While the thread waited in
// it, on a CPU or asleep, the device was not done; it returned soon after it last got its CPU
// back. So the device finished after the last stretch of waiting that did not end in the return,
// and by the return; when the last stretch of waiting is a sleep (a blocking synchronisation),
// its wakeup is the device's completion. Back on its CPU, it waited for the device only as a
// drain that kept its CPU does (waited_for_device), its absence being its last time off it: a
// thread back from 70 ms held off by its quota took 80 us to return from a device done long
// before.
struct DrainFinish {
    std::int64_t low_ns = 0;
    std::int64_t high_ns = 0;
};

DrainFinish finish_of_lost_drain(FirstEndingAfter& intervals, std::int64_t entry_ns,
                                 std::int64_t end_ns, std::int64_t own_ns) {
    auto first = intervals(entry_ns);
    std::int64_t waited_until = entry_ns;  // the end of the latest stretch of waiting
    std::int64_t woken_ns = -1;            // the wakeup of the latest sleep, if it came last
    std::int64_t on_cpu_from = entry_ns;
    std::int64_t away_ns = 0;  // the last absence from the CPU
    for (auto it = first; it != intervals.end() && it->ts_ns < end_ns; ++it) {
        const std::int64_t out = std::max(entry_ns, it->ts_ns);
        if (out > on_cpu_from) {  // on a CPU, spinning in the drain, before this interval
            waited_until = out;
            woken_ns = -1;
        }
        if (!it->preempted && it->woken_ns() > out) {
            waited_until = std::min(end_ns, it->woken_ns());
            woken_ns = waited_until;
        }
        on_cpu_from = std::min(end_ns, it->end_ns());
        away_ns = on_cpu_from - out;
    }
    const std::int64_t returning_ns = end_ns - on_cpu_from;  // on a CPU until the return
    if (waited_for_device(returning_ns, own_ns, away_ns)) {
        return {end_ns - own_ns, end_ns - own_ns};  // waited on a CPU until the device was done
    }
    if (woken_ns >= 0) {
        return {woken_ns, woken_ns};
    }
    return {waited_until, std::max(waited_until, end_ns - returning_ns)};
}

// When a call that queues work had queued it: by the moment it was first preempted inside (its own
// host work, microseconds on a CPU, was most likely done by then), else by its return.
std::int64_t queued_by(FirstEndingAfter& intervals, std::int64_t entry_ns, std::int64_t end_ns) {
    auto after = intervals(entry_ns);
    for (; after != intervals.end() && after->ts_ns < end_ns; ++after) {
        if (after->preempted) {
            return std::max(entry_ns, after->ts_ns);
        }
    }
    return end_ns;
}

// When the loop begins: with its first step (the thread's step marker, loop_steps.hpp). The
// periods that end by then are set-up (the model built, its weights copied, a warm-up timed),
// paid once whatever the loop's causes, and no part of what a cause's removal speeds up: they are
// not kept. The lowest time where the thread has no step.
std::int64_t loop_start_ns(const TraceModel& model, const AccountedCalls& calls) {
    constexpr std::int64_t kNoStep = std::numeric_limits<std::int64_t>::min();
    const std::vector<StepMarker> markers = step_markers(model, calls);
    if (markers.empty()) {
        return kNoStep;
    }
    const auto first_step = std::find_if(calls.begin(), calls.end(), [&](std::uint32_t call) {
        return model.calls.op_index[call] == markers.front().op_index;
    });
    if (first_step == calls.end()) {
        return kNoStep;
    }
    // A step opened by a synchronisation begins at its return; else at the marker's entry.
    return drains_queue(model.ops[static_cast<std::size_t>(model.calls.op_index[*first_step])])
               ? model.calls.end_ns(*first_step)
               : model.calls.ts_ns[*first_step];
}

}  // namespace

bool enqueues_work(const OpInfo& op) {
    return op.category == OpCategory::kKernel || op.category == OpCategory::kCopy;
}

bool drains_queue(const OpInfo& op) {
    return op.category == OpCategory::kSync || waits_for_device(op);
}

int queue_of_thread(const std::vector<DeviceQueue>& queues, int thread_index) {
    auto found = std::find_if(queues.begin(), queues.end(), [&](const DeviceQueue& queue) {
        return queue.thread_index == thread_index;
    });
    return found == queues.end() ? -1 : static_cast<int>(found - queues.begin());
}

std::int64_t DeviceQueue::device_busy_ns() const {
    std::int64_t busy = 0;
    for (std::size_t k = 0; k < periods.size(); ++k) {
        const std::int64_t device_ns = periods[k].device_ns;
        add_to(busy, device_ns - std::min(meeting_of(k).peer_wait_ns, device_ns));
    }
    return busy;
}

void set_device_done(DeviceQueue& queue, std::size_t k, std::int64_t done_ns) {
    DrainPeriod period = queue.periods[k];
    const std::int64_t work =
        work_finishing_at(queue.enqueue_ns, period.first_enqueue, period.enqueues, done_ns);
    period.device_ns = period.device_low_ns = period.device_high_ns =
        within_bounds(queue.bounds.at(k, period.drain_ns), work);
    queue.periods.set(k, period);
}

void forget_bounds(std::vector<DeviceQueue>& queues) {
    for (DeviceQueue& queue : queues) {
        queue.bounds = PeriodBoundsList();  // freed, not just emptied
    }
}

DeviceQueue reconstruct_queue(const TraceModel& model, const ResolvedFilter& filter,
                              int thread_index) {
    DeviceQueue queue;
    queue.thread_index = thread_index;
    const AccountedCalls calls(model, filter, thread_index);
    const auto& intervals = model.offcpu_by_thread[static_cast<std::size_t>(thread_index)];
    // Each drain's time runnable but not running is measured twice, once for its op's own cost
    // and once for its period, instead of held for millions of drains in between.
    const DrainsSeen seen = see_drains(model, calls, intervals);
    // Sized once: growing would copy them, and hold up to twice what they need.
    queue.enqueue_ns.reserve(seen.enqueues);
    queue.periods.reserve(seen.drains);  // a period ends at each drain but the first
    queue.bounds.reserve(seen.drains);
    const std::int64_t loop_start = loop_start_ns(model, calls);
    DrainRunnable drain_runnable(intervals);
    FirstEndingAfter offcpu(intervals);
    std::int64_t period_start = -1;  // no drain seen yet: what comes before is not a period
    std::uint32_t first_enqueue = 0;
    for (std::uint32_t call : calls) {
        const OpInfo& op = model.ops[static_cast<std::size_t>(model.calls.op_index[call])];
        const std::int64_t entry = model.calls.ts_ns[call];
        const std::int64_t end = std::max(model.calls.end_ns(call), period_start);
        if (drains_queue(op)) {
            const std::int64_t runnable_ns = drain_runnable(model, call);
            if (period_start >= 0 && entry >= period_start) {
                // The drain's own cost when nothing is left to wait for: the least time a call of
                // its op spent on a CPU or asleep on this thread, or all of its own such time when
                // it did not wait.
                const std::int64_t drain_own_ns = seen.own_ns.at(model.calls.op_index[call]);
                PeriodBounds b;
                DrainPeriod p{.start_ns = period_start,
                              .drain_entry_ns = entry,
                              .drain_ns = end,
                              .first_enqueue = first_enqueue,
                              .enqueues = static_cast<std::uint32_t>(queue.enqueue_ns.size()) -
                                          first_enqueue};
                p.drain_runnable_ns = runnable_ns;
                const std::int64_t kept_cpu_ns = end - entry - p.drain_runnable_ns;
                auto work_done_at = [&](std::int64_t ts_ns) {
                    return work_finishing_at(queue.enqueue_ns, first_enqueue, p.enqueues, ts_ns);
                };
                if (p.drain_runnable_ns < kDrainWaitMarginNs) {
                    const std::int64_t away_ns =
                        entry - (p.enqueues > 0 ? queue.enqueue_ns.back() : period_start);
                    p.waited = waited_for_device(kept_cpu_ns, drain_own_ns, away_ns);
                    if (p.waited) {
                        b.device_done_ns = end - p.drain_runnable_ns;
                        p.device_ns = work_done_at(b.device_done_ns);
                    }
                    b.device_max_ns = work_done_at(entry);
                } else {
                    const DrainFinish finish =
                        finish_of_lost_drain(offcpu, entry, end, drain_own_ns);
                    p.waited = finish.low_ns == finish.high_ns;
                    b.device_done_ns = p.waited ? finish.low_ns : -1;
                    p.device_ns = b.device_min_ns = work_done_at(finish.low_ns);
                    b.device_max_ns = work_done_at(finish.high_ns);
                }
                // Drains return in time order: the set-up's periods are the first ones.
                if (p.drain_ns > loop_start) {
                    queue.waited_periods += p.waited ? 1 : 0;
                    queue.periods.push_back(p);
                    queue.bounds.push_back(b, p.drain_ns);
                }
            }
            period_start = end;
            first_enqueue = static_cast<std::uint32_t>(queue.enqueue_ns.size());
        } else if (enqueues_work(op) && period_start >= 0) {
            queue.enqueue_ns.push_back(queued_by(offcpu, entry, end));
        }
    }
    estimate_unmeasured_periods(queue);
    return queue;
}

}  // namespace causeway::analysis
