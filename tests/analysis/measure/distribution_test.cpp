// summarize() against the definition: the nearest-rank percentile of the sorted values, for
// every size from one value up (ranks coincide for small sizes) and with ties.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "analysis/measure/distribution.hpp"

using causeway::analysis::summarize;

namespace {

std::int64_t nearest_rank(const std::vector<std::int64_t>& sorted, double pct) {
    auto rank =
        static_cast<std::size_t>(std::ceil(pct / 100.0 * static_cast<double>(sorted.size())));
    return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}

// summarize(values) against the sorted values.
void require_nearest_ranks(std::vector<std::int64_t> values) {
    std::vector<std::int64_t> sorted = values;
    std::sort(sorted.begin(), sorted.end());
    auto d = summarize(values);
    REQUIRE(d.count == static_cast<std::int64_t>(sorted.size()));
    REQUIRE(d.min_ns == sorted.front());
    REQUIRE(d.max_ns == sorted.back());
    REQUIRE(d.p50_ns == nearest_rank(sorted, 50));
    REQUIRE(d.p90_ns == nearest_rank(sorted, 90));
    REQUIRE(d.p95_ns == nearest_rank(sorted, 95));
    REQUIRE(d.p99_ns == nearest_rank(sorted, 99));
}

}  // namespace

TEST_CASE("percentiles are the nearest ranks of the sorted values", "[analysis][distribution]") {
    std::mt19937_64 random(7);
    for (std::size_t n = 1; n <= 300; ++n) {
        std::vector<std::int64_t> values(n);
        for (auto& v : values) {
            v = static_cast<std::int64_t>(random() % (n / 3 + 2));  // many ties
        }
        INFO("n = " << n);
        require_nearest_ranks(std::move(values));
    }
}

TEST_CASE("percentiles of a million values and more, found by counting, are the nearest ranks",
          "[analysis][distribution]") {
    constexpr std::size_t kN = (std::size_t{1} << 20) + 7;  // above the counted path's floor
    constexpr auto kMax = std::numeric_limits<std::int64_t>::max();
    constexpr auto kMin = std::numeric_limits<std::int64_t>::min();
    std::mt19937_64 random(11);
    const std::vector<std::pair<const char*, std::function<std::int64_t(std::size_t)>>> shapes = {
        // call durations: a narrow peak and a far tail
        {"peak and tail",
         [&](std::size_t) {
             return static_cast<std::int64_t>(5000 + random() % 1000 +
                                              (random() % 100 == 0 ? 2000000 : 0));
         }},
        // one value but for an outlier at each end of int64: every round of counting
        {"one value and extremes",
         [&](std::size_t i) { return i == 3   ? kMin
                                     : i == 5 ? kMax
                                              : std::int64_t{42}; }},
        // the whole of int64, signed
        {"any int64", [&](std::size_t) { return static_cast<std::int64_t>(random()); }},
        // ranks in one bucket but each a different value
        {"two clusters",
         [&](std::size_t i) {
             return static_cast<std::int64_t>(i % 2 == 0 ? random() % 64 : (1LL << 40) + i);
         }},
    };
    for (const auto& [name, value_at] : shapes) {
        std::vector<std::int64_t> values(kN);
        for (std::size_t i = 0; i < kN; ++i) {
            values[i] = value_at(i);
        }
        INFO(name);
        require_nearest_ranks(std::move(values));
    }
}
