#include "report/human_units.hpp"

#include <cmath>
#include <cstdio>

#include "base/number_text.hpp"

namespace causeway::report {
namespace {

std::string printf_string(const char* format, double value, const char* unit) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, value, unit);
    return buffer;
}

}  // namespace

std::string format_bytes(double bytes) {
    static const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    std::size_t unit = 0;
    while (std::fabs(bytes) >= 1024 && unit + 1 < std::size(kUnits)) {
        bytes /= 1024;
        ++unit;
    }
    if (unit == 0) {
        return printf_string("%.0f %s", bytes, kUnits[0]);
    }
    return three_significant_digits(bytes, kUnits[unit]);
}

std::string format_rate(double per_s) {
    if (per_s >= 1e6) {
        return printf_string("%.1fM%s", per_s / 1e6, "/s");
    }
    if (per_s >= 1e3) {
        return printf_string("%.1fk%s", per_s / 1e3, "/s");
    }
    return printf_string(per_s >= 10 ? "%.0f%s" : "%.1f%s", per_s, "/s");
}

std::string format_throughput(double bytes_per_s) {
    return format_bytes(bytes_per_s) + "/s";
}

std::string format_percent(double ratio) {
    double pct = ratio * 100;
    return printf_string(pct >= 10 || pct == 0 ? "%.0f%s" : "%.1f%s", pct, "%");
}

std::string format_ratio(double ratio) {
    return printf_string(ratio >= 10 ? "%.0f%s" : "%.1f%s", ratio, "x");
}

std::string format_decimal(double value, int decimals) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

}  // namespace causeway::report
