// Durations as text (base/duration_text.hpp) and numbers to three significant digits
// (base/number_text.hpp): what people and models write is read, what a report prints is read back.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>

#include "base/duration_text.hpp"
#include "base/number_text.hpp"

using causeway::BareNumber;
using causeway::format_duration;
using causeway::kMaxDurationNs;
using causeway::parse_duration_ns;
using causeway::three_significant_digits;

TEST_CASE("a bare number is seconds for a window and nanoseconds for a threshold", "[base]") {
    CHECK(parse_duration_ns("2", BareNumber::kSeconds).value() == 2'000'000'000);
    CHECK(parse_duration_ns("2", BareNumber::kNanoseconds).value() == 2);
    CHECK(parse_duration_ns("2m", BareNumber::kNanoseconds).value() == 120'000'000'000);
    CHECK(parse_duration_ns("2min", BareNumber::kSeconds).value() == 120'000'000'000);
    CHECK(parse_duration_ns("900ns", BareNumber::kSeconds).value() == 900);
}

TEST_CASE("a duration longer than any recording is refused, saying the limit", "[base]") {
    CHECK(parse_duration_ns("1000000000000000000ns", BareNumber::kSeconds).value() ==
          kMaxDurationNs);
    const auto beyond = parse_duration_ns("1000000001s", BareNumber::kSeconds);
    REQUIRE_FALSE(beyond);
    CHECK_THAT(beyond.error().message, Catch::Contains("durations go up to 1e18 ns"));
    const auto unit = parse_duration_ns("3h", BareNumber::kSeconds);
    REQUIRE_FALSE(unit);
    CHECK_THAT(unit.error().message, Catch::Contains("unknown unit 'h'"));
}

TEST_CASE("durations print in the unit that reads best, with one sign at any size", "[base]") {
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
    CHECK(format_duration(950) == "950 ns");
    CHECK(format_duration(12'345) == "12.3 us");
    CHECK(format_duration(40'200'000) == "40.2 ms");
    CHECK(format_duration(3'250'000'000) == "3.25 s");
    CHECK(format_duration(125'000'000'000) == "2m05s");
    CHECK(format_duration(-125'000'000'000) == "-2m05s");
    CHECK(format_duration(kMax) == "153722867m17s");
    CHECK(format_duration(kMin) == "-153722867m17s");
    CHECK(format_duration(-1'500) == "-1.50 us");
}

TEST_CASE("three significant digits, whatever the magnitude", "[base]") {
    CHECK(three_significant_digits(1.234, "ms") == "1.23 ms");
    CHECK(three_significant_digits(12.34, "GiB") == "12.3 GiB");
    CHECK(three_significant_digits(123.4, "us") == "123 us");
    CHECK(three_significant_digits(-5.0, "s") == "-5.00 s");
}
