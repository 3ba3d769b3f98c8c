// summarize() against the definition: the nearest-rank percentile of the sorted values, for
// every size from one value up (ranks coincide for small sizes) and with ties.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "analysis/measure/distribution.hpp"

using causeway::analysis::summarize;

namespace {

std::int64_t nearest_rank(const std::vector<std::int64_t>& sorted, double pct) {
    auto rank =
        static_cast<std::size_t>(std::ceil(pct / 100.0 * static_cast<double>(sorted.size())));
    return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}

}  // namespace

TEST_CASE("percentiles are the nearest ranks of the sorted values", "[analysis][distribution]") {
    std::mt19937_64 random(7);
    for (std::size_t n = 1; n <= 300; ++n) {
        std::vector<std::int64_t> values(n);
        for (auto& v : values) {
            v = static_cast<std::int64_t>(random() % (n / 3 + 2));  // many ties
        }
        std::vector<std::int64_t> sorted = values;
        std::sort(sorted.begin(), sorted.end());
        auto d = summarize(values);
        INFO("n = " << n);
        REQUIRE(d.count == static_cast<std::int64_t>(n));
        REQUIRE(d.min_ns == sorted.front());
        REQUIRE(d.max_ns == sorted.back());
        REQUIRE(d.p50_ns == nearest_rank(sorted, 50));
        REQUIRE(d.p90_ns == nearest_rank(sorted, 90));
        REQUIRE(d.p95_ns == nearest_rank(sorted, 95));
        REQUIRE(d.p99_ns == nearest_rank(sorted, 99));
    }
}
