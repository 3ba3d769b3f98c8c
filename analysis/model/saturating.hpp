#pragma once
// Sums of values read from a trace. Each value is bounded when it is loaded
// (plausible_values.hpp), but a sum over millions of them is not: these sums stop at the largest
// int64 instead of wrapping around to a negative number of nanoseconds or bytes.

#include <cstdint>
#include <limits>

namespace causeway::analysis {

inline std::int64_t saturating_add(std::int64_t a, std::int64_t b) {
    std::int64_t sum = 0;
    if (__builtin_add_overflow(a, b, &sum)) {
        return b > 0 ? std::numeric_limits<std::int64_t>::max()
                     : std::numeric_limits<std::int64_t>::min();
    }
    return sum;
}

// total += value, saturating.
inline void add_to(std::int64_t& total, std::int64_t value) {
    total = saturating_add(total, value);
}

}  // namespace causeway::analysis
