#pragma once
// Which values a recording can hold. A row with an impossible value (a call that ends after the
// session by years, a negative duration, a copy of more bytes than any machine has) is left out
// of every number and counted in a data-quality row: one such row would otherwise overflow the
// sums it enters and stretch the time axis of every answer.

#include <cstdint>
#include <optional>
#include <string>

namespace causeway::analysis {

class PlausibleValues {
  public:
    // Clocks read on different CPUs and a recorder that stops while calls return.
    static constexpr std::int64_t kSlackNs = 1'000'000'000;
    // The longest recording taken as possible when the session has no stop time.
    static constexpr std::int64_t kLongestSessionNs = 366LL * 24 * 3600 * 1'000'000'000;
    // More than any one copy, allocation or page-allocation bucket can move: 1 PiB.
    static constexpr std::int64_t kMostBytes = std::int64_t{1} << 50;

    // `stop_ns`: the session's stop time, when it has one that is itself possible.
    explicit PlausibleValues(std::optional<std::int64_t> stop_ns);

    // The session's stop time when it is possible (0 .. kLongestSessionNs).
    static bool possible_stop(std::int64_t stop_ns);

    // A time on the session's axis: from kSlackNs before its start to kSlackNs after its stop.
    bool time(std::int64_t ts_ns) const;
    // An interval that starts and ends inside the session and does not run backwards.
    bool interval(std::int64_t ts_ns, std::int64_t dur_ns) const;
    // A total of time: not negative, at most the session's length.
    bool duration(std::int64_t dur_ns) const;
    // A length of time no recording exceeds, not tied to this session: 0 .. kLongestSessionNs.
    bool length(std::int64_t dur_ns) const;
    // A count of events or a size: not negative, at most kMostBytes.
    bool amount(std::int64_t value) const;

    // "0 .. 12.3 s" (with the slack), for the data-quality rows that name the rule.
    std::string describe() const;

  private:
    std::int64_t latest_ns_;  // the latest possible time
};

}  // namespace causeway::analysis
