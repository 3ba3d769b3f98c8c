// The units people read in the report (report/human_units.hpp).
#include <catch2/catch.hpp>

#include "report/human_units.hpp"

using namespace causeway::report;

TEST_CASE("bytes, rates and throughputs print in the unit that reads best", "[report][units]") {
    CHECK(format_bytes(512) == "512 B");
    CHECK(format_bytes(4096) == "4.00 KiB");
    CHECK(format_bytes(3.1 * 1024 * 1024 * 1024) == "3.10 GiB");
    CHECK(format_rate(350) == "350/s");
    CHECK(format_rate(1'200) == "1.2k/s");
    CHECK(format_rate(2'500'000) == "2.5M/s");
    CHECK(format_throughput(2.4 * 1024 * 1024 * 1024) == "2.40 GiB/s");
}

TEST_CASE("shares, ratios and decimals keep the digits that matter", "[report][units]") {
    CHECK(format_percent(0.834) == "83%");
    CHECK(format_percent(0.004) == "0.4%");
    CHECK(format_percent(0) == "0%");
    CHECK(format_ratio(350) == "350x");
    CHECK(format_ratio(4.5) == "4.5x");
    CHECK(format_decimal(5.234, 1) == "5.2");
}
