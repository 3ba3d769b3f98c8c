// The drain periods' bounds in 12 bytes a period (analysis/measure/period_bounds.hpp): every value
// reads back as stored, the ones that do not fit 32 bits included.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <vector>

#include "analysis/measure/period_bounds.hpp"

using namespace causeway::analysis;

namespace {

bool same(const PeriodBounds& a, const PeriodBounds& b) {
    return a.device_done_ns == b.device_done_ns && a.device_min_ns == b.device_min_ns &&
           a.device_max_ns == b.device_max_ns;
}

}  // namespace

TEST_CASE("a period's bounds read back as stored, whole where they do not fit 32 bits",
          "[analysis][queue]") {
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    constexpr std::int64_t kBeyond32 = std::int64_t{1} << 33;
    struct Period {
        PeriodBounds bounds;
        std::int64_t drain_ns;
    };
    const std::vector<Period> periods = {
        {{.device_done_ns = -1, .device_min_ns = 0, .device_max_ns = 0}, 1'000},
        {{.device_done_ns = 900, .device_min_ns = 400, .device_max_ns = 800}, 1'000},
        {{.device_done_ns = 5'000, .device_min_ns = 0, .device_max_ns = 0}, 5'000},  // at the drain
        // A finish more than 4.29 s before its drain, and work of more than 4.29 s.
        {{.device_done_ns = 10, .device_min_ns = kBeyond32, .device_max_ns = kBeyond32 + 1},
         kBeyond32},
        {{.device_done_ns = -1, .device_min_ns = 0xFFFFFFFE, .device_max_ns = 0xFFFFFFFF}, 7},
        // What a hostile trace may give: a finish after its drain, negative work, the extremes.
        {{.device_done_ns = 2'000, .device_min_ns = -5, .device_max_ns = kMax}, 1'000},
        {{.device_done_ns = -2, .device_min_ns = 0, .device_max_ns = -1}, 0},
        {{.device_done_ns = 1'000 - 0xFFFFFFFE, .device_min_ns = 3, .device_max_ns = 4}, 1'000},
        {{.device_done_ns = 1'000 - 0xFFFFFFFD, .device_min_ns = 3, .device_max_ns = 4}, 1'000},
    };
    PeriodBoundsList list;
    list.reserve(periods.size());
    for (const Period& p : periods) {
        list.push_back(p.bounds, p.drain_ns);
    }
    REQUIRE(list.size() == periods.size());
    for (std::size_t k = 0; k < periods.size(); ++k) {
        const PeriodBounds read = list.at(k, periods[k].drain_ns);
        INFO("period " << k << ": done " << read.device_done_ns << ", work " << read.device_min_ns
                       << ".." << read.device_max_ns);
        CHECK(same(read, periods[k].bounds));
    }
}

TEST_CASE("a period's bounds take 12 bytes where they fit", "[analysis][queue]") {
    PeriodBoundsList list;
    constexpr std::size_t kPeriods = 1'000;
    list.reserve(kPeriods);
    for (std::size_t k = 0; k < kPeriods; ++k) {
        const auto drain_ns = static_cast<std::int64_t>(k) * 10'000'000;
        list.push_back({.device_done_ns = k % 2 ? drain_ns - 5 : -1,
                        .device_min_ns = 1'000,
                        .device_max_ns = 4'000'000},
                       drain_ns);
    }
    CHECK(list.bytes() == kPeriods * 12);
}
