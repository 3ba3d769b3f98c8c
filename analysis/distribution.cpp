#include "analysis/distribution.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace causeway::analysis {
namespace {

std::size_t nearest_rank_index(std::size_t n, double pct) {
    auto rank = static_cast<std::size_t>(std::ceil(pct / 100.0 * static_cast<double>(n)));
    return std::clamp<std::size_t>(rank, 1, n) - 1;
}

}  // namespace

std::int64_t percentile(std::vector<std::int64_t>& values, double pct) {
    if (values.empty()) {
        return 0;
    }
    auto nth = values.begin() + static_cast<std::ptrdiff_t>(nearest_rank_index(values.size(), pct));
    std::nth_element(values.begin(), nth, values.end());
    return *nth;
}

Distribution summarize(std::vector<std::int64_t>& durations_ns) {
    Distribution d;
    if (durations_ns.empty()) {
        return d;
    }
    auto n = durations_ns.size();
    d.count = static_cast<std::int64_t>(n);
    d.total_ns = std::accumulate(durations_ns.begin(), durations_ns.end(), std::int64_t{0});
    d.mean_ns = d.total_ns / d.count;
    // Highest rank first: each nth_element then only needs the prefix left of the previous one.
    auto begin = durations_ns.begin();
    auto select = [&](double pct, std::vector<std::int64_t>::iterator end) {
        auto nth = begin + static_cast<std::ptrdiff_t>(nearest_rank_index(n, pct));
        std::nth_element(begin, nth, end);
        return nth;
    };
    auto max_it = std::max_element(begin, durations_ns.end());
    d.max_ns = *max_it;
    d.min_ns = *std::min_element(begin, durations_ns.end());
    auto p99 = select(99, durations_ns.end());
    d.p99_ns = *p99;
    auto p95 = select(95, p99 + 1);
    d.p95_ns = *p95;
    auto p90 = select(90, p95 + 1);
    d.p90_ns = *p90;
    d.p50_ns = *select(50, p90 + 1);
    return d;
}

}  // namespace causeway::analysis
