#include "analysis/compare/rank_test.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

namespace causeway::analysis {
namespace {

// Every `stride`-th value, so at most kMaxRankTestValues are ranked.
std::vector<std::int64_t> strided(const std::vector<std::int64_t>& values) {
    const std::size_t stride = (values.size() + kMaxRankTestValues - 1) / kMaxRankTestValues;
    if (stride <= 1) {
        return values;
    }
    std::vector<std::int64_t> kept;
    kept.reserve(values.size() / stride + 1);
    for (std::size_t i = 0; i < values.size(); i += stride) {
        kept.push_back(values[i]);
    }
    return kept;
}

}  // namespace

RankTest mann_whitney(const std::vector<std::int64_t>& before_all,
                      const std::vector<std::int64_t>& after_all) {
    RankTest test;
    const std::vector<std::int64_t> before = strided(before_all);
    const std::vector<std::int64_t> after = strided(after_all);
    test.before_values = before.size();
    test.after_values = after.size();
    if (before.size() < kMinRankTestValues || after.size() < kMinRankTestValues) {
        return test;
    }
    // (value, from `after`) sorted by value; equal values share the mean of their ranks.
    std::vector<std::pair<std::int64_t, bool>> pooled;
    pooled.reserve(before.size() + after.size());
    for (std::int64_t v : before) {
        pooled.emplace_back(v, false);
    }
    for (std::int64_t v : after) {
        pooled.emplace_back(v, true);
    }
    std::sort(pooled.begin(), pooled.end());
    const double n1 = static_cast<double>(before.size());
    const double n2 = static_cast<double>(after.size());
    const double n = n1 + n2;
    double after_rank_sum = 0;
    double tie_term = 0;  // sum over groups of equal values of (t^3 - t)
    for (std::size_t start = 0; start < pooled.size();) {
        std::size_t end = start;
        while (end < pooled.size() && pooled[end].first == pooled[start].first) {
            ++end;
        }
        const double mean_rank = (static_cast<double>(start + 1) + static_cast<double>(end)) / 2;
        const double ties = static_cast<double>(end - start);
        tie_term += ties * ties * ties - ties;
        for (std::size_t i = start; i < end; ++i) {
            if (pooled[i].second) {
                after_rank_sum += mean_rank;
            }
        }
        start = end;
    }
    const double u_after = after_rank_sum - n2 * (n2 + 1) / 2;
    const double mean_u = n1 * n2 / 2;
    const double variance = n1 * n2 / 12 * ((n + 1) - tie_term / (n * (n - 1)));
    test.tested = true;
    test.after_larger_probability = u_after / (n1 * n2);
    if (variance <= 0) {  // every value equal: no evidence of any difference
        return test;
    }
    // Continuity correction: U moves in steps of one half.
    const double distance = std::max(0.0, std::fabs(u_after - mean_u) - 0.5);
    test.z = std::copysign(distance / std::sqrt(variance), u_after - mean_u);
    test.p_value = std::erfc(std::fabs(test.z) / std::sqrt(2.0));
    return test;
}

std::vector<double> holm_adjust(const std::vector<double>& p_values) {
    std::vector<std::size_t> order(p_values.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return p_values[a] < p_values[b]; });
    std::vector<double> adjusted(p_values.size(), 1.0);
    double running_max = 0;
    for (std::size_t rank = 0; rank < order.size(); ++rank) {
        const double factor = static_cast<double>(order.size() - rank);
        running_max = std::max(running_max, std::min(1.0, factor * p_values[order[rank]]));
        adjusted[order[rank]] = running_max;
    }
    return adjusted;
}

}  // namespace causeway::analysis
