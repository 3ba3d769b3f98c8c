// An interval list gives back every interval as added: long ones, reversed ones, any weight, after
// replacing and cutting, and across its chunks.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <vector>

#include "analysis/measure/interval_list.hpp"

using causeway::analysis::IntervalList;
using causeway::analysis::WeightedInterval;

namespace {

void check_same(const IntervalList& list, const std::vector<WeightedInterval>& expected) {
    REQUIRE(list.size() == expected.size());
    std::size_t k = 0;
    for (const WeightedInterval& i : list) {
        const WeightedInterval& e = expected[k++];
        if (i.start_ns != e.start_ns || i.end_ns != e.end_ns || i.weight != e.weight) {
            FAIL("interval " << k - 1 << " reads [" << i.start_ns << ", " << i.end_ns << ") x "
                             << i.weight);
        }
    }
}

}  // namespace

TEST_CASE("an interval list reads back what was added, replaced and cut", "[analysis][intervals]") {
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
    std::vector<WeightedInterval> expected;
    for (std::int64_t k = 0; k < 1000; ++k) {
        const std::int64_t start = k * 10'000'000'000;
        const std::int64_t length = k % 3 == 0 ? 5'000'000'000 : k % 3 == 1 ? 1'000 : -7;
        expected.push_back({start, start + length, k % 5 == 0 ? 1.0 / 3 : 1.0});
    }
    expected.push_back({kMin, kMax, 0.25});
    expected.push_back({kMax, kMin, 1.0});
    IntervalList list;
    for (const WeightedInterval& i : expected) {
        list.push_back(i);
    }
    check_same(list, expected);

    const IntervalList copy = list;
    list.set(3, {30, 40, 0.5});             // a long one made short
    list.set(4, {0, 5'000'000'000, 0.75});  // a short one made long
    expected[3] = {30, 40, 0.5};
    expected[4] = {0, 5'000'000'000, 0.75};
    check_same(list, expected);

    list.truncate(300);
    expected.resize(300);
    check_same(list, expected);
    list.push_back({1, 6'000'000'000, 1.0});
    expected.push_back({1, 6'000'000'000, 1.0});
    check_same(list, expected);
    CHECK(copy.size() == 1002);
    CHECK(copy[1001].end_ns == kMin);
}

TEST_CASE("an interval list reads back close intervals, their weights mixed within a chunk",
          "[analysis][intervals]") {
    std::vector<WeightedInterval> expected;
    for (std::int64_t k = 0; k < 700; ++k) {
        const std::int64_t start = 1'000'000'000'000 + k * 1'000;
        // The first chunk shares one weight; the second changes it part-way; the third, always.
        const double weight = k < 256 ? 0.5 : k < 400 ? 1.0 : k < 512 ? 0.25 : 0.1 * (k % 7);
        expected.push_back({start, start + 500, weight});
    }
    IntervalList list;
    for (const WeightedInterval& i : expected) {
        list.push_back(i);
    }
    check_same(list, expected);

    list.set(256, {5, 10, 0.5});  // before the chunk's first start: kept aside
    list.set(0, {expected[0].start_ns, expected[0].start_ns + 1, 0.75});  // a shared weight split
    expected[256] = {5, 10, 0.5};
    expected[0] = {expected[0].start_ns, expected[0].start_ns + 1, 0.75};
    check_same(list, expected);
    for (std::size_t k = 0; k < expected.size(); ++k) {
        REQUIRE(list.start_ns(k) == expected[k].start_ns);
    }

    list.truncate(257);
    expected.resize(257);
    check_same(list, expected);
    list.push_back({expected[0].start_ns + 300'000, expected[0].start_ns + 300'001, 2.0});
    expected.push_back({expected[0].start_ns + 300'000, expected[0].start_ns + 300'001, 2.0});
    check_same(list, expected);
}
