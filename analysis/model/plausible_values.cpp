#include "analysis/model/plausible_values.hpp"

#include "base/duration_text.hpp"

namespace causeway::analysis {

PlausibleValues::PlausibleValues(std::optional<std::int64_t> stop_ns)
    : latest_ns_(stop_ns && possible_stop(*stop_ns) ? *stop_ns + kSlackNs
                                                    : kLongestSessionNs + kSlackNs) {}

bool PlausibleValues::possible_stop(std::int64_t stop_ns) {
    return stop_ns >= 0 && stop_ns <= kLongestSessionNs;
}

bool PlausibleValues::time(std::int64_t ts_ns) const {
    return ts_ns >= -kSlackNs && ts_ns <= latest_ns_;
}

bool PlausibleValues::interval(std::int64_t ts_ns, std::int64_t dur_ns) const {
    // ts_ns <= latest_ns_ first, so latest_ns_ - ts_ns cannot overflow.
    return time(ts_ns) && dur_ns >= 0 && dur_ns <= latest_ns_ - ts_ns;
}

bool PlausibleValues::duration(std::int64_t dur_ns) const {
    return dur_ns >= 0 && dur_ns <= latest_ns_ + kSlackNs;
}

bool PlausibleValues::length(std::int64_t dur_ns) const {
    return dur_ns >= 0 && dur_ns <= kLongestSessionNs;
}

bool PlausibleValues::amount(std::int64_t value) const {
    return value >= 0 && value <= kMostBytes;
}

std::string PlausibleValues::describe() const {
    return "-" + format_duration(kSlackNs) + " .. " + format_duration(latest_ns_);
}

}  // namespace causeway::analysis
