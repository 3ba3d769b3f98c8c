// Duration and window parsing (analysis/model/trace_filter.hpp) on any text: it either parses to a
// value in range (a duration in [0, kMaxDurationNs], a window with 0 <= start < end) or is refused
// with a message. Every `window` a tool, a prompt or `causeway stats --window` takes goes through
// here, and an out-of-range start once crashed get_timeline.
#include <cstddef>
#include <cstdint>
#include <string>

#include "analysis/model/trace_filter.hpp"
#include "fuzz/fuzz_check.hpp"

using causeway::analysis::kMaxDurationNs;
using causeway::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const auto duration = causeway::analysis::parse_duration_ns(text);
    if (duration) {
        require(duration.value() >= 0 && duration.value() <= kMaxDurationNs,
                "a parsed duration lies in [0, kMaxDurationNs]");
    } else {
        require(!duration.error().message.empty(), "a refused duration says why");
    }
    // An empty trace, a typical one (6 s) and the longest one a window may name.
    for (const std::int64_t trace_end_ns :
         {std::int64_t{0}, std::int64_t{6'000'000'000}, kMaxDurationNs}) {
        const auto window = causeway::analysis::parse_window(text, trace_end_ns);
        if (window) {
            require(window->start_ns >= 0 && window->start_ns < window->end_ns &&
                        window->end_ns <= kMaxDurationNs && window->dur_ns() > 0,
                    "a parsed window has 0 <= start < end <= kMaxDurationNs");
        } else {
            require(!window.error().message.empty(), "a refused window says why");
        }
    }
    return 0;
}
