// A queue's drain periods read back as kept: starts that are not the previous drain, distances
// that do not fit 32 bits, work ranges, and after replacing periods.
#include "analysis/measure/drain_periods.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <vector>

using causeway::analysis::DrainPeriod;
using causeway::analysis::DrainPeriods;

namespace {

bool same(const DrainPeriod& a, const DrainPeriod& b) {
    return a.start_ns == b.start_ns && a.drain_entry_ns == b.drain_entry_ns &&
           a.drain_ns == b.drain_ns && a.drain_runnable_ns == b.drain_runnable_ns &&
           a.first_enqueue == b.first_enqueue && a.enqueues == b.enqueues &&
           a.device_ns == b.device_ns && a.device_low_ns == b.device_low_ns &&
           a.device_high_ns == b.device_high_ns && a.waited == b.waited;
}

void check_same(const DrainPeriods& periods, const std::vector<DrainPeriod>& expected) {
    REQUIRE(periods.size() == expected.size());
    std::size_t k = 0;
    for (const DrainPeriod& p : periods) {
        if (!same(p, expected[k])) {
            FAIL("period " << k << " reads start " << p.start_ns << ", entry " << p.drain_entry_ns
                           << ", drain " << p.drain_ns << ", runnable " << p.drain_runnable_ns
                           << ", work " << p.device_low_ns << ".." << p.device_ns << ".."
                           << p.device_high_ns);
        }
        ++k;
    }
}

}  // namespace

TEST_CASE("drain periods read back what was kept and replaced", "[analysis][queue]") {
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
    std::vector<DrainPeriod> expected;
    std::int64_t drain = 1'000;
    for (std::uint32_t k = 0; k < 600; ++k) {
        DrainPeriod p;
        // Every seventh starts later than the previous drain (a drain entered before it).
        p.start_ns = drain + (k % 7 == 3 ? 250 : 0);
        const std::int64_t length = k % 11 == 5 ? 9'000'000'000 : 2'000'000;  // 9 s: no 32 bits
        p.drain_ns = p.start_ns + length;
        p.drain_entry_ns = k % 13 == 4 ? p.drain_ns + 10 : p.drain_ns - length / 2;  // reversed
        p.drain_runnable_ns = k % 17 == 2 ? 5'000'000'000 : k % 2 == 0 ? 0 : 40'000;
        p.first_enqueue = k * 3;
        p.enqueues = 3;
        p.device_ns = 700'000 + k;
        p.waited = k % 2 == 0;
        p.device_low_ns = p.waited ? p.device_ns : 100'000;
        p.device_high_ns = p.waited ? p.device_ns : 1'500'000;
        expected.push_back(p);
        drain = p.drain_ns;
    }
    expected.push_back({.start_ns = kMin,
                        .drain_entry_ns = kMax,
                        .drain_ns = kMin,
                        .drain_runnable_ns = kMin,
                        .device_ns = kMax,
                        .device_low_ns = kMin,
                        .device_high_ns = kMax});
    DrainPeriods periods;
    for (const DrainPeriod& p : expected) {
        periods.push_back(p);
    }
    check_same(periods, expected);

    // A period replaced: one of a range given one work, one of one work given a range, and one
    // whose drain moved, which leaves the next period's start where it was.
    for (std::size_t k : {std::size_t{1}, std::size_t{2}, std::size_t{40}}) {
        DrainPeriod p = expected[k];
        p.device_low_ns = p.device_high_ns = p.device_ns = k == 2 ? 5 : p.device_ns;
        if (k == 2) {
            p.device_low_ns = 1;
        }
        p.drain_ns += k == 40 ? 123 : 0;
        p.waited = !p.waited;
        periods.set(k, p);
        expected[k] = p;
    }
    check_same(periods, expected);
    CHECK(same(periods.front(), expected.front()));
    CHECK(same(periods.back(), expected.back()));

    const DrainPeriods listed = {expected[0], expected[1]};
    check_same(listed, {expected[0], expected[1]});
}
