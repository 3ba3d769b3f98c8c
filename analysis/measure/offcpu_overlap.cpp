#include "analysis/measure/offcpu_overlap.hpp"

#include "analysis/model/saturating.hpp"
#include "analysis/model/trace_filter.hpp"

namespace causeway::analysis {

TimeSplit OffCpuCursor::measure(std::int64_t start_ns, std::int64_t end_ns,
                                CompetitorTime* competitors, std::vector<SleepOverlap>* sleeps,
                                int thread_index) {
    TimeSplit split;
    split.total_ns = end_ns > start_ns ? end_ns - start_ns : 0;
    while (next_ < intervals_.size() && intervals_[next_].end_ns() <= start_ns) {
        ++next_;
    }
    for (std::size_t k = next_; k < intervals_.size() && intervals_[k].ts_ns < end_ns; ++k) {
        const OffCpuInterval& o = intervals_[k];
        if (o.preempted) {
            std::int64_t ov = overlap_ns(o.ts_ns, o.end_ns(), start_ns, end_ns);
            add_to(split.preempted_ns, ov);
            if (competitors != nullptr && ov > 0) {
                add_to((*competitors)[o.next_thread_index], ov);
            }
        } else {
            // Asleep first, then runnable from the wakeup to the switch-in.
            std::int64_t wakeup_ns = o.woken_ns();
            std::int64_t asleep = overlap_ns(o.ts_ns, wakeup_ns, start_ns, end_ns);
            add_to(split.blocked_ns, asleep);
            add_to(split.wakeup_wait_ns, overlap_ns(wakeup_ns, o.end_ns(), start_ns, end_ns));
            if (sleeps != nullptr && asleep > 0) {
                sleeps->push_back({thread_index, &o, asleep});
            }
        }
    }
    return split;
}

}  // namespace causeway::analysis
