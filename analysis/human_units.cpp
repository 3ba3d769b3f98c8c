#include "analysis/human_units.hpp"

#include <cmath>
#include <cstdio>

namespace causeway::analysis {
namespace {

std::string printf_string(const char* format, double value, const char* unit) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, value, unit);
    return buffer;
}

// Three significant digits: 1.23, 12.3, 123.
std::string scaled(double value, const char* unit) {
    double magnitude = std::fabs(value);
    const char* format = magnitude >= 100 ? "%.0f %s" : magnitude >= 10 ? "%.1f %s" : "%.2f %s";
    return printf_string(format, value, unit);
}

}  // namespace

std::string format_duration(std::int64_t ns) {
    auto value = static_cast<double>(ns);
    double magnitude = std::fabs(value);
    if (magnitude < 1e3) {
        return std::to_string(ns) + " ns";
    }
    if (magnitude < 1e6) {
        return scaled(value / 1e3, "us");
    }
    if (magnitude < 1e9) {
        return scaled(value / 1e6, "ms");
    }
    if (magnitude < 60e9) {
        return scaled(value / 1e9, "s");
    }
    // Minutes and seconds of the magnitude, the sign in front: -2m05s, not -2m-5s.
    auto seconds = static_cast<std::int64_t>(std::llround(magnitude / 1e9));
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%s%lldm%02llds", value < 0 ? "-" : "",
                  static_cast<long long>(seconds / 60), static_cast<long long>(seconds % 60));
    return buffer;
}

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
    return scaled(bytes, kUnits[unit]);
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

}  // namespace causeway::analysis
