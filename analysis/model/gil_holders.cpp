#include "analysis/model/gil_holders.hpp"

#include <algorithm>
#include <cstddef>
#include <map>
#include <set>

#include "analysis/model/saturating.hpp"

namespace causeway::analysis {
namespace {

// The thread that ended `sleep` when it is a thread of the waiter's own process: only those can
// hold its GIL.
int handed_over_by(const TraceModel& model, int waiter, const OffCpuInterval& sleep) {
    if (!sleep.gil || sleep.wake != Wake::kThread || sleep.waker_thread_index < 0) {
        return -1;
    }
    const ThreadInfo& thread = model.threads[static_cast<std::size_t>(waiter)];
    const ThreadInfo& waker = model.threads[static_cast<std::size_t>(sleep.waker_thread_index)];
    return waker.process_index == thread.process_index ? sleep.waker_thread_index : -1;
}

// Whether `thread` made a CUDA call that started inside [from_ns, to_ns).
bool called_between(const TraceModel& model, std::size_t thread, std::int64_t from_ns,
                    std::int64_t to_ns) {
    const auto& calls = model.calls_by_thread[thread];
    auto first = std::partition_point(calls.begin(), calls.end(), [&](std::uint32_t i) {
        return model.calls.ts_ns[i] < from_ns;
    });
    return first != calls.end() && model.calls.ts_ns[*first] < to_ns;
}

// How long `thread` was not asleep inside [start_ns, end_ns): on a CPU or runnable, as a thread
// that holds the GIL is (a preempted holder keeps it).
std::int64_t awake_ns(const TraceModel& model, int thread, std::int64_t start_ns,
                      std::int64_t end_ns) {
    const auto& intervals = model.offcpu_by_thread[static_cast<std::size_t>(thread)];
    auto it = std::partition_point(intervals.begin(), intervals.end(),
                                   [&](const OffCpuInterval& o) { return o.end_ns() <= start_ns; });
    std::int64_t asleep = 0;
    for (; it != intervals.end() && it->ts_ns < end_ns; ++it) {
        if (!it->preempted) {
            add_to(asleep, std::min(end_ns, it->end_ns()) - std::max(start_ns, it->ts_ns));
        }
    }
    return end_ns - start_ns - asleep;
}

// One wait for the GIL: sleeps [first, last] of a thread's intervals.
struct GilWait {
    std::size_t first = 0;
    std::size_t last = 0;
};

std::vector<GilWait> gil_waits(const TraceModel& model, std::size_t thread) {
    const auto& intervals = model.offcpu_by_thread[thread];
    std::vector<GilWait> waits;
    for (std::size_t i = 0; i < intervals.size(); ++i) {
        if (!intervals[i].gil) {
            continue;
        }
        bool continues =
            !waits.empty() && waits.back().last + 1 == i &&
            handed_over_by(model, static_cast<int>(thread), intervals[waits.back().last]) < 0 &&
            intervals[i].ts_ns - intervals[i - 1].end_ns() <= kGilRecheckNs &&
            !called_between(model, thread, intervals[i - 1].end_ns(), intervals[i].ts_ns);
        if (continues) {
            waits.back().last = i;
        } else {
            waits.push_back({i, i});
        }
    }
    return waits;
}

}  // namespace

void assign_gil_holders(TraceModel& model) {
    std::vector<std::vector<GilWait>> waits(model.offcpu_by_thread.size());
    std::map<int, std::set<int>> known_holders;  // by process: threads seen handing the GIL over
    for (std::size_t t = 0; t < waits.size(); ++t) {
        waits[t] = gil_waits(model, t);
        for (const GilWait& wait : waits[t]) {
            int holder =
                handed_over_by(model, static_cast<int>(t), model.offcpu_by_thread[t][wait.last]);
            if (holder >= 0) {
                known_holders[model.threads[t].process_index].insert(holder);
            }
        }
    }
    for (std::size_t t = 0; t < waits.size(); ++t) {
        auto& intervals = model.offcpu_by_thread[t];
        const auto& candidates = known_holders[model.threads[t].process_index];
        for (const GilWait& wait : waits[t]) {
            int holder = handed_over_by(model, static_cast<int>(t), intervals[wait.last]);
            // The handover was not seen (the wakeup came with the timer's, or was not recorded):
            // of the threads seen handing this process's GIL over, the one awake the longest.
            std::int64_t best_ns = 0;
            for (int candidate : holder < 0 ? candidates : std::set<int>{}) {
                std::int64_t ns = awake_ns(model, candidate, intervals[wait.first].ts_ns,
                                           intervals[wait.last].end_ns());
                if (candidate != static_cast<int>(t) && ns > best_ns) {
                    best_ns = ns;
                    holder = candidate;
                }
            }
            for (std::size_t i = wait.first; i <= wait.last; ++i) {
                intervals[i].gil_holder_index = holder;
            }
        }
    }
}

}  // namespace causeway::analysis
