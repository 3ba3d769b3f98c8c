#pragma once
// nlohmann::json for report/: every file here includes this header rather than
// <nlohmann/json.hpp>. nlohmann writes any enum as its integer without a word (a competitor's
// Role once came out as `"role": 1`, caught only by the golden test). An enum of the layers
// below must be written by its name function (role_name, confidence_name, ...): these deleted
// overloads, found by argument-dependent lookup next to nlohmann's own (the call is then deleted or
// ambiguous), make `json(enum_value)` fail to compile instead of writing a number.

#include <string>
#include <type_traits>

#include <nlohmann/json.hpp>

namespace causeway::report {

// A document as the CLI prints it: indented, with bytes that are not UTF-8 replaced by U+FFFD.
// Names, command lines and paths come from the traced system and may hold any bytes; nlohmann
// throws on them by default, which left `explain --json` printing nothing (exit 1).
inline std::string json_text(const nlohmann::json& value) {
    return value.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace causeway::report

namespace causeway::report::detail {

template <class Enum>
concept ScopedEnum = std::is_enum_v<Enum>;

}  // namespace causeway::report::detail

// One declaration per namespace whose enums reach report/ (ADL looks only there).
namespace causeway::analysis {
template <class Json, report::detail::ScopedEnum Enum>
void to_json(Json& json, Enum value) = delete;
}  // namespace causeway::analysis

namespace causeway::tracedb {
template <class Json, report::detail::ScopedEnum Enum>
void to_json(Json& json, Enum value) = delete;
}  // namespace causeway::tracedb

namespace causeway::fleet {
template <class Json, report::detail::ScopedEnum Enum>
void to_json(Json& json, Enum value) = delete;
}  // namespace causeway::fleet
