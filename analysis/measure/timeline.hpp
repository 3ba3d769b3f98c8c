#pragma once
// A trace cut into equal time buckets, to zoom into an incident: CUDA latency, off-CPU time by
// reason, CPU use, switches and page allocations per bucket.

#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/model/trace_filter.hpp"
#include "analysis/model/trace_model.hpp"

namespace causeway::analysis {

inline constexpr int kMaxTimelineBuckets = 1000;

struct TimelineOptions {
    TraceFilter filter{};
    int buckets = 60;  // 1..kMaxTimelineBuckets
};

struct TimelineBucket {
    std::int64_t start_ns = 0;
    // CUDA calls starting in the bucket (runtime calls and driver calls not inside one).
    std::int64_t cuda_calls = 0;
    std::int64_t cuda_ns = 0;
    std::int64_t cuda_p50_ns = 0;
    std::int64_t cuda_p99_ns = 0;
    std::int64_t cuda_max_ns = 0;
    // Off-CPU time of the traced threads inside the bucket (stored intervals, clipped).
    std::int64_t preempted_ns = 0;
    std::int64_t blocked_ns = 0;
    std::int64_t runq_wait_ns = 0;
    std::int64_t switches = 0;           // stored off-CPU intervals starting in the bucket
    std::optional<double> cpu_busy_pct;  // mean of the snapshots in the bucket; none: no sample
    std::int64_t page_allocs = 0;
    std::int64_t page_alloc_bytes = 0;
};

struct Timeline {
    TimeWindow range;
    std::int64_t bucket_ns = 0;
    std::vector<TimelineBucket> buckets;
};

Timeline compute_timeline(const TraceModel& model, const TimelineOptions& options);

}  // namespace causeway::analysis
