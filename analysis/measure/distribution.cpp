#include "analysis/measure/distribution.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace causeway::analysis {
namespace {

std::size_t nearest_rank_index(std::size_t n, double pct) {
    auto rank = static_cast<std::size_t>(std::ceil(pct / 100.0 * static_cast<double>(n)));
    return std::clamp<std::size_t>(rank, 1, n) - 1;
}

}  // namespace

std::int64_t percentile(std::span<std::int64_t> values, double pct) {
    if (values.empty()) {
        return 0;
    }
    auto nth = values.begin() + static_cast<std::ptrdiff_t>(nearest_rank_index(values.size(), pct));
    std::nth_element(values.begin(), nth, values.end());
    return *nth;
}

Distribution summarize(std::span<std::int64_t> durations_ns) {
    Distribution d;
    if (durations_ns.empty()) {
        return d;
    }
    auto n = durations_ns.size();
    d.count = static_cast<std::int64_t>(n);
    // Wide enough for any count of int64 values: the mean is exact even where the total, shown
    // as int64, has to saturate.
    __int128 total = 0;
    for (std::int64_t ns : durations_ns) {
        total += ns;
    }
    constexpr auto kMax = std::numeric_limits<std::int64_t>::max();
    constexpr auto kMin = std::numeric_limits<std::int64_t>::min();
    d.total_ns = static_cast<std::int64_t>(std::clamp<__int128>(total, kMin, kMax));
    d.mean_ns = static_cast<std::int64_t>(total / static_cast<__int128>(n));
    // Lowest rank first: nth_element leaves everything above the rank after it, so each higher
    // rank is selected only among the elements after the previous one (about 1.6n work for the
    // four ranks instead of 3.8n from the top down).
    auto begin = durations_ns.begin();
    auto end = durations_ns.end();
    auto select = [&](double pct, std::span<std::int64_t>::iterator from) {
        auto nth = begin + static_cast<std::ptrdiff_t>(nearest_rank_index(n, pct));
        if (nth >= from) {  // else the rank is the previous one's, already in place
            std::nth_element(from, nth, end);
        }
        return nth;
    };
    d.max_ns = *std::max_element(begin, end);
    d.min_ns = *std::min_element(begin, end);
    auto p50 = select(50, begin);
    d.p50_ns = *p50;
    auto p90 = select(90, p50 + 1);
    d.p90_ns = *p90;
    auto p95 = select(95, p90 + 1);
    d.p95_ns = *p95;
    d.p99_ns = *select(99, p95 + 1);
    return d;
}

}  // namespace causeway::analysis
