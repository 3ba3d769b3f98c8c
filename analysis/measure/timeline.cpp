#include "analysis/measure/timeline.hpp"

#include <algorithm>

#include "analysis/measure/distribution.hpp"
#include "analysis/model/saturating.hpp"

namespace causeway::analysis {
namespace {

class Bucketing {
  public:
    Bucketing(const TimeWindow& range, std::int64_t bucket_ns, std::size_t count)
        : range_(range), bucket_ns_(bucket_ns), count_(count) {}

    // Bucket of a time inside the range; -1 outside.
    std::int64_t index(std::int64_t ts_ns) const {
        if (!range_.contains(ts_ns)) {
            return -1;
        }
        return std::min<std::int64_t>((ts_ns - range_.start_ns) / bucket_ns_,
                                      static_cast<std::int64_t>(count_) - 1);
    }

    // Calls `add(bucket, overlap_ns)` for every bucket [start, end) overlaps.
    template <class F>
    void spread(std::int64_t start_ns, std::int64_t end_ns, F add) const {
        std::int64_t from = std::max(start_ns, range_.start_ns);
        std::int64_t to = std::min(end_ns, range_.end_ns);
        for (std::int64_t b = index(from); b >= 0 && from < to; ++b) {
            std::int64_t bucket_end =
                std::min(range_.start_ns + (b + 1) * bucket_ns_, range_.end_ns);
            if (static_cast<std::size_t>(b) + 1 == count_) {
                bucket_end = range_.end_ns;
            }
            add(static_cast<std::size_t>(b), std::min(to, bucket_end) - from);
            from = bucket_end;
        }
    }

  private:
    TimeWindow range_;
    std::int64_t bucket_ns_;
    std::size_t count_;
};

}  // namespace

Timeline compute_timeline(const TraceModel& model, const TimelineOptions& options) {
    ResolvedFilter filter(model, options.filter);
    Timeline t;
    t.range = filter.window();
    auto count = static_cast<std::size_t>(std::clamp(options.buckets, 1, kMaxTimelineBuckets));
    t.bucket_ns = std::max<std::int64_t>((t.range.dur_ns() + static_cast<std::int64_t>(count) - 1) /
                                             static_cast<std::int64_t>(count),
                                         1);
    Bucketing bucketing(t.range, t.bucket_ns, count);
    t.buckets.resize(count);
    for (std::size_t b = 0; b < count; ++b) {
        t.buckets[b].start_ns = t.range.start_ns + static_cast<std::int64_t>(b) * t.bucket_ns;
    }

    std::vector<std::vector<std::int64_t>> durations(count);
    const CudaCalls& c = model.calls;
    for (std::size_t i = 0; i < c.size(); ++i) {
        if (c.enclosed[i] || !filter.call_selected(i)) {
            continue;
        }
        std::int64_t b = bucketing.index(c.ts_ns[i]);
        if (b >= 0) {
            durations[static_cast<std::size_t>(b)].push_back(c.dur_ns[i]);
        }
    }
    for (std::size_t b = 0; b < count; ++b) {
        Distribution d = summarize(durations[b]);
        t.buckets[b].cuda_calls = d.count;
        t.buckets[b].cuda_ns = d.total_ns;
        t.buckets[b].cuda_p50_ns = d.p50_ns;
        t.buckets[b].cuda_p99_ns = d.p99_ns;
        t.buckets[b].cuda_max_ns = d.max_ns;
    }

    for (std::size_t th = 0; th < model.threads.size(); ++th) {
        int thread = static_cast<int>(th);
        if (!filter.thread_selected(thread) || !model.process_of_thread(thread).in_tree) {
            continue;
        }
        for (const auto& o : model.offcpu_by_thread[th]) {
            if (std::int64_t b = bucketing.index(o.ts_ns); b >= 0) {
                ++t.buckets[static_cast<std::size_t>(b)].switches;
            }
            if (o.preempted) {
                bucketing.spread(o.ts_ns, o.end_ns(), [&](std::size_t b, std::int64_t ns) {
                    add_to(t.buckets[b].preempted_ns, ns);
                });
                continue;
            }
            std::int64_t wakeup = o.end_ns() - o.runq_wait_ns;
            bucketing.spread(o.ts_ns, wakeup, [&](std::size_t b, std::int64_t ns) {
                add_to(t.buckets[b].blocked_ns, ns);
            });
            bucketing.spread(wakeup, o.end_ns(), [&](std::size_t b, std::int64_t ns) {
                add_to(t.buckets[b].runq_wait_ns, ns);
            });
        }
    }

    std::vector<int> samples(count, 0);
    for (const auto& s : model.snapshots) {
        if (std::int64_t b = bucketing.index(s.ts_ns); b >= 0) {
            auto& bucket = t.buckets[static_cast<std::size_t>(b)];
            bucket.cpu_busy_pct = bucket.cpu_busy_pct.value_or(0) + s.cpu_busy_pct;
            ++samples[static_cast<std::size_t>(b)];
        }
    }
    for (std::size_t b = 0; b < count; ++b) {
        if (samples[b] > 0) {
            *t.buckets[b].cpu_busy_pct /= samples[b];
        }
    }
    for (const auto& p : model.page_alloc) {
        if (p.process_index < 0 || !filter.process_selected(p.process_index)) {
            continue;
        }
        if (std::int64_t b = bucketing.index(p.bucket_ns); b >= 0) {
            add_to(t.buckets[static_cast<std::size_t>(b)].page_allocs, p.count);
            add_to(t.buckets[static_cast<std::size_t>(b)].page_alloc_bytes, p.bytes);
        }
    }
    return t;
}

}  // namespace causeway::analysis
