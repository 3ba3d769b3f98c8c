#pragma once
// Strings that come from the traced system (process and thread names, command lines, symbols,
// SQL results) are data, not instructions: before they reach a model they lose control and
// bidirectional-override characters, invalid UTF-8 becomes U+FFFD, and they are capped in length.
// The MCP server applies this to every string of a tool's structuredContent; the tools' text
// (tool_text.hpp) applies it to every string it takes from an answer, so both say the same.

#include <cstddef>
#include <string>
#include <string_view>

namespace causeway::report {

// Longest string from the traced system passed on (bytes, before the ellipsis).
inline constexpr std::size_t kMaxUntrustedStringBytes = 1024;

std::string sanitize_untrusted(std::string_view text,
                               std::size_t max_bytes = kMaxUntrustedStringBytes);

}  // namespace causeway::report
