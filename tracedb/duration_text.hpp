// Durations written by people and models ("250ms", "1.5s", "40us", "2m", "900ns"): one parser for
// the collector's options and the analysis's windows, so both refuse the same out-of-range text.
#pragma once

#include <cstdint>
#include <string>

#include "tracedb/result.hpp"

namespace causeway::tracedb {

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

}  // namespace causeway::tracedb
