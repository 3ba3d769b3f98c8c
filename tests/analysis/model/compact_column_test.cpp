// The compact call columns give back every value exactly: those that fit the narrow width, those
// that do not (kept aside), and timestamps or call indices far from their block's start or out of
// order.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <limits>
#include <vector>

#include "analysis/model/compact_column.hpp"

using namespace causeway::analysis;

namespace {

template <class Column, class Wide>
void check_reads_back(const CallColumn<Wide>& values) {
    Column column(values);
    REQUIRE(column.size() == values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (column[i] != values[i]) {
            FAIL("row " << i << " reads " << column[i] << ", stored " << values[i]);
        }
    }
}

// Timestamps of any spread: jumps longer than 32 bits of ns, rows before their neighbours, the
// extremes.
CallColumn<std::int64_t> spread_timestamps() {
    CallColumn<std::int64_t> values;
    std::int64_t t = 1'700'000'000'000'000'000;
    for (int i = 0; i < 2000; ++i) {
        t += i % 300 == 0 ? 5'000'000'000 : 1'000;
        values.push_back(i % 7 == 3 ? t - 50'000 : t);
    }
    values.push_back(std::numeric_limits<std::int64_t>::min());
    values.push_back(std::numeric_limits<std::int64_t>::max());
    values.push_back(0);
    return values;
}

}  // namespace

TEST_CASE("a narrow column reads back values in and out of its width", "[analysis][model]") {
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
    CallColumn<std::int64_t> values;
    for (std::int64_t v :
         {std::int64_t{0}, std::int64_t{-1}, std::int64_t{1} << 31, (std::int64_t{1} << 31) - 1,
          -(std::int64_t{1} << 31), kMax, kMin, std::int64_t{4096}, std::int64_t{-2}}) {
        values.push_back(v);
    }
    check_reads_back<NarrowColumn<std::int64_t, std::int32_t>>(values);
    check_reads_back<NarrowColumn<std::int64_t, std::uint32_t>>(values);
    NarrowColumn<std::int64_t, std::int32_t> column(values);
    // Nine rows: the two 32-bit bounds in range, the others kept aside (16 bytes each).
    CHECK(column.bytes() < values.size() * sizeof(std::int64_t) + 5 * 16);
}

TEST_CASE("a narrow column replaces the values picked, whether they fit or were kept aside",
          "[analysis][model]") {
    CallColumn<std::int32_t> values{5, 40'000, -1, 7, 70'000, 40'000, 5};
    NarrowColumn<std::int32_t, std::int16_t> column(values);
    CHECK(column.replace_if<std::int32_t{-1}>(
              [](std::int32_t v) { return v == 5 || v == 40'000; }) == 4);
    for (std::int32_t& v : values) {
        v = v == 5 || v == 40'000 ? -1 : v;
    }
    CHECK(column == NarrowColumn<std::int32_t, std::int16_t>(values));  // 70'000 still kept aside
}

TEST_CASE("a time column reads back timestamps of any spread and order", "[analysis][model]") {
    check_reads_back<TimeColumn>(spread_timestamps());
}

TEST_CASE("a time column filled in parts split inside blocks reads back every timestamp",
          "[analysis][model]") {
    // Near 0 (a row measured against a block's first value not yet stored would fit its offset),
    // some rows before their neighbours, one jump longer than 32 bits of ns.
    CallColumn<std::int64_t> values;
    for (std::int64_t i = 0; i < 1500; ++i) {
        values.push_back(i * 1'000 + (i % 7 == 3 ? -500 : 0) + (i >= 1100 ? 5'000'000'000 : 0));
    }
    // Parts begin inside blocks of 256 rows (300, 601) and at one (1024); the second stores fewer
    // rows than its slice holds, as a part whose rows were left out does: the first row of the
    // block the third part begins in (512) among them.
    const std::vector<std::size_t> first{0, 300, 601, 1024, values.size()};
    const std::size_t kLeftOut = 100;
    TimeColumn column;
    column.size_for_fill(values.size());
    std::vector<TimeColumn::PartFill> parts(first.size() - 1);
    for (std::size_t p = first.size() - 1; p-- > 0;) {  // later parts first, as threads may
        parts[p].first_row = first[p];
        const std::size_t end = p == 1 ? first[p + 1] - kLeftOut : first[p + 1];
        for (std::size_t row = first[p]; row < end; ++row) {
            column.fill(parts[p], row, values[row]);
        }
    }
    SECTION("read out, part by part, where a part left rows out") {
        for (std::size_t p = 0; p + 1 < first.size(); ++p) {
            const std::size_t end = p == 1 ? first[p + 1] - kLeftOut : first[p + 1];
            for (std::size_t row = first[p]; row < end; ++row) {
                REQUIRE(column.value_at(parts[p], row) == values[row]);
            }
        }
    }
    SECTION("finished where they lie, every row stored") {
        for (std::size_t row = first[2] - kLeftOut; row < first[2]; ++row) {
            column.fill(parts[1], row, values[row]);
        }
        for (const auto& part : parts) {
            column.finish_fill(part);
        }
        column.end_fill(values.size());
        REQUIRE(column.size() == values.size());
        for (std::size_t row = 0; row < values.size(); ++row) {
            REQUIRE(column[row] == values[row]);
        }
    }
}

TEST_CASE("a time column of a steady stream of calls takes about 4 bytes a call",
          "[analysis][model]") {
    CallColumn<std::int64_t> values;
    for (std::int64_t i = 0; i < 100'000; ++i) {
        values.push_back(1'700'000'000'000'000'000 + i * 20'000 - (i % 5) * 3'000);
    }
    check_reads_back<TimeColumn>(values);
    CHECK(TimeColumn(values).bytes() < values.size() * 5);
}

TEST_CASE("a thread's calls read back in 2 bytes a call, forwards, backwards and by search",
          "[analysis][model]") {
    // A thread that makes every third call of the trace, with one call far from the others (an
    // index kept aside) and a few out of index order (calls sorted by their timestamps).
    CallColumn<std::uint32_t> values;
    for (std::uint32_t i = 0; i < 30'000; i += 3) {
        values.push_back(i % 999 == 0 ? i + 1 : i);
    }
    values.push_back(4'000'000'000);
    values.push_back(30'001);
    using CallsOfThread = BlockOffsetColumn<std::uint32_t, std::int16_t>;
    check_reads_back<CallsOfThread>(values);
    const CallsOfThread calls(values);
    CHECK(calls.bytes() < values.size() * 3);
    CHECK(*calls.rbegin() == 30'001);
    CHECK(*(calls.rbegin() + 1) == 4'000'000'000);
    CHECK(std::distance(calls.begin(), calls.end()) == static_cast<std::ptrdiff_t>(values.size()));
    auto found = std::lower_bound(calls.begin(), calls.begin() + 10'000, std::uint32_t{15'000});
    CHECK(*found == 15'000);
}

TEST_CASE("ids take a byte a row while every one fits in it", "[analysis][model]") {
    using Ids = ByteWhenSmallColumn<NarrowColumn<std::int32_t, std::uint16_t>>;
    CallColumn<std::int32_t> values;
    for (std::int32_t i = 0; i < 10'000; ++i) {
        values.push_back(i % 256);
    }
    check_reads_back<Ids>(values);
    CHECK(Ids(NarrowColumn<std::int32_t, std::uint16_t>(values)).bytes() == values.size());
    // One id past a byte, and one past 16 bits (kept aside by the dense column): every row as
    // the dense column holds it.
    values.push_back(256);
    values.push_back(70'000);
    check_reads_back<Ids>(values);
    CHECK(Ids(NarrowColumn<std::int32_t, std::uint16_t>(values)).bytes() >= values.size() * 2);
}

TEST_CASE("a mostly-usual column keeps only the rows that are not usual, while they are few",
          "[analysis][model]") {
    using StackIds = MostlyUsualColumn<NarrowColumn<std::int32_t, std::int16_t>, std::int32_t{-1}>;
    CallColumn<std::int32_t> values(10'000, -1);
    check_reads_back<StackIds>(values);
    // No stack at all: the block index alone, 4 bytes a 256 rows.
    CHECK(StackIds(values).bytes() < values.size() / 32);

    // A few, at the ends of blocks and wider than 16 bits: 3 bytes each (and 16 for a wide one).
    for (std::size_t i : {0, 255, 256, 511, 7'000, 9'999}) {
        values[i] = static_cast<std::int32_t>(i) + 1;
    }
    values[300] = 1 << 20;
    check_reads_back<StackIds>(values);
    CHECK(StackIds(values).bytes() < values.size() / 32 + 7 * 3 + 16);

    // Most rows hold one: every row, in 16 bits.
    for (std::size_t i = 0; i < values.size(); i += 3) {
        values[i] = static_cast<std::int32_t>(i % 97);
    }
    check_reads_back<StackIds>(values);
    CHECK(StackIds(values).bytes() < values.size() * sizeof(std::int16_t) + 64);

    using Flags = MostlyUsualColumn<CallColumn<std::uint8_t>, std::uint8_t{0}>;
    CallColumn<std::uint8_t> flags(1'000, 0);
    flags[999] = 1;
    check_reads_back<Flags>(flags);
}

TEST_CASE("a flag column reads back each row's flag in a bit a row", "[analysis][model]") {
    constexpr std::size_t kRows = 1000;  // not a whole number of 64-bit words
    std::vector<bool> expected(kRows, false);
    FlagColumn flags(kRows);
    for (std::size_t row : {std::size_t{0}, std::size_t{63}, std::size_t{64}, std::size_t{500},
                            std::size_t{501}, kRows - 1}) {
        flags.set(row);
        expected[row] = true;
    }
    flags.set(500);  // twice: still set
    REQUIRE(flags.size() == kRows);
    for (std::size_t row = 0; row < kRows; ++row) {
        if (flags[row] != expected[row]) {
            FAIL("row " << row << " reads " << flags[row]);
        }
    }
    CHECK(flags.bytes() == 16 * sizeof(std::uint64_t));
}
