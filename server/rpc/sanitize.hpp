#pragma once
// Strings that come from the traced system (process and thread names, command lines, symbols,
// SQL results) are data, not instructions: before they reach a model they lose control and
// bidirectional-override characters, invalid UTF-8 becomes U+FFFD, and they are capped in length.

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "report/untrusted_text.hpp"

namespace causeway::server {

// The sanitiser itself is the report layer's: the tools' text is written there.
using report::kMaxUntrustedStringBytes;
using report::sanitize_untrusted;

// Longest error message sent (bytes): error texts quote what the client sent (a window, a tool
// name, SQL), so they are sanitised like traced-system strings, with room for a list of traces.
inline constexpr std::size_t kMaxErrorMessageBytes = 4096;

// An error text for the client: its own control and bidi characters (echoed back in the text)
// removed, capped at kMaxErrorMessageBytes.
std::string sanitize_error_message(std::string_view message);

// Sanitises every string value (not the keys, which are ours) of a JSON tree in place.
void sanitize_strings(nlohmann::json& tree, std::size_t max_bytes = kMaxUntrustedStringBytes);

// Serialises for the wire; never throws on odd text.
std::string to_wire(const nlohmann::json& message);

}  // namespace causeway::server
