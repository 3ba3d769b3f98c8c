#include "base/duration_text.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "base/number_text.hpp"

namespace causeway {

Result<std::int64_t> parse_duration_ns(const std::string& text, BareNumber bare) {
    const bool bare_seconds = bare == BareNumber::kSeconds;
    const std::string help =
        std::string(
            "use a number with a unit: ns, us, ms, s or m (e.g. 1.5s, 250ms); a bare "
            "number is ") +
        (bare_seconds ? "seconds" : "nanoseconds");
    if (text.empty()) {
        return Error{"empty duration: " + help};
    }
    const char* begin = text.c_str();
    char* end = nullptr;
    double value = std::strtod(begin, &end);
    if (end == begin || !std::isfinite(value) || value < 0) {
        return Error{"'" + text + "' is not a duration: " + help};
    }
    const std::string unit(end);
    const std::pair<const char*, double> units[] = {
        {"", bare_seconds ? 1e9 : 1},
        {"s", 1e9},
        {"ms", 1e6},
        {"us", 1e3},
        {"ns", 1},
        {"m", 60e9},
        {"min", 60e9},
    };
    for (const auto& [name, scale] : units) {
        if (unit != name) {
            continue;
        }
        // Checked in double before rounding: std::llround of a value beyond int64 is undefined
        // (in practice INT64_MIN, which once made a window start 292 years before the trace).
        const double ns = value * scale;
        if (!(ns <= static_cast<double>(kMaxDurationNs))) {
            return Error{"'" + text +
                         "' is too long: durations go up to 1e18 ns (about 31 years); a "
                         "recording is far shorter, so pass a time inside it"};
        }
        return static_cast<std::int64_t>(std::llround(ns));
    }
    return Error{"'" + text + "' has an unknown unit '" + unit + "': " + help};
}

std::string format_duration(std::int64_t ns) {
    auto value = static_cast<double>(ns);
    double magnitude = std::fabs(value);
    if (magnitude < 1e3) {
        return std::to_string(ns) + " ns";
    }
    if (magnitude < 1e6) {
        return three_significant_digits(value / 1e3, "us");
    }
    if (magnitude < 1e9) {
        return three_significant_digits(value / 1e6, "ms");
    }
    if (magnitude < 60e9) {
        return three_significant_digits(value / 1e9, "s");
    }
    // Minutes and seconds of the magnitude, the sign in front: -2m05s, not -2m-5s.
    auto seconds = static_cast<std::int64_t>(std::llround(magnitude / 1e9));
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%s%lldm%02llds", value < 0 ? "-" : "",
                  static_cast<long long>(seconds / 60), static_cast<long long>(seconds % 60));
    return buffer;
}

}  // namespace causeway
