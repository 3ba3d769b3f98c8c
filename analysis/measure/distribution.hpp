#pragma once
// Exact summary of a set of durations: nearest-rank percentiles, no sampling and no histogram
// buckets, at any size.

#include <cstdint>
#include <span>

namespace causeway::analysis {

struct Distribution {
    std::int64_t count = 0;
    std::int64_t total_ns = 0;
    std::int64_t mean_ns = 0;
    std::int64_t min_ns = 0;
    std::int64_t p50_ns = 0;
    std::int64_t p90_ns = 0;
    std::int64_t p95_ns = 0;
    std::int64_t p99_ns = 0;
    std::int64_t max_ns = 0;
};

// Summarises `durations_ns` without copying it: fewer than a million values are selected among
// in place (nth_element, reordering them); more are counted into buckets of their range first,
// and only the values of the buckets that hold a percentile are copied. Empty input gives an
// all-zero Distribution with count 0.
Distribution summarize(std::span<std::int64_t> durations_ns);
// The same of durations that fit in 32 bits, held in half the memory.
Distribution summarize(std::span<std::int32_t> durations_ns);

// The nearest-rank percentile `pct` (0 < pct <= 100) of `values`, reordering them.
std::int64_t percentile(std::span<std::int64_t> values, double pct);

}  // namespace causeway::analysis
