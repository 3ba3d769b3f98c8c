#pragma once
// Durations as text. Read as people and models write them ("250ms", "1.5s", "40us", "2m",
// "900ns"): one parser for the collector's options and the analysis's windows, so both refuse the
// same out-of-range text. Written as people read them: "950 ns", "40.2 ms", "2m05s".

#include <cstdint>
#include <string>

#include "base/result.hpp"

namespace causeway {

// Longest duration a person or a model may name (1e18 ns, about 31.7 years): far beyond any
// recording, and far enough below INT64_MAX (9.2e18 ns) that a window's start plus its length
// and a bucket's end never overflow.
inline constexpr std::int64_t kMaxDurationNs = 1'000'000'000'000'000'000;

// What a number without a unit means: seconds for windows (as people say them), nanoseconds for
// the collector's thresholds (as they were always given).
enum class BareNumber { kSeconds, kNanoseconds };

// Parses a number with a unit: ns, us, ms, s, m or min. Refuses what is not a finite number from
// 0 to kMaxDurationNs, with a message that says the accepted forms and the range.
Result<std::int64_t> parse_duration_ns(const std::string& text, BareNumber bare);

// 950 ns, 12.3 us, 40.2 ms, 3.25 s, 2m05s; a negative duration has its sign in front (-2m05s).
std::string format_duration(std::int64_t ns);

}  // namespace causeway
