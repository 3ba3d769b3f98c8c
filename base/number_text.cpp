#include "base/number_text.hpp"

#include <cmath>
#include <cstdio>

namespace causeway {

std::string three_significant_digits(double value, const char* unit) {
    const double magnitude = std::fabs(value);
    const char* format = magnitude >= 100 ? "%.0f %s" : magnitude >= 10 ? "%.1f %s" : "%.2f %s";
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, value, unit);
    return buffer;
}

}  // namespace causeway
