#pragma once
// nlohmann::json for report/: every file here includes this header rather than
// <nlohmann/json.hpp>. nlohmann writes any enum as its integer without a word (a competitor's
// Role once came out as `"role": 1`, caught only by the golden test). An enum of the layers
// below must be written by its name function (role_name, confidence_name, ...): these deleted
// overloads, found by argument-dependent lookup and more specialised than nlohmann's own, make
// `json(enum_value)` fail to compile instead of writing a number.

#include <type_traits>

#include <nlohmann/json.hpp>

namespace causeway::report::detail {

template <class Enum>
concept ScopedEnum = std::is_enum_v<Enum>;

}  // namespace causeway::report::detail

namespace causeway::analysis {
template <report::detail::ScopedEnum Enum>
void to_json(nlohmann::json& json, Enum value) = delete;
template <report::detail::ScopedEnum Enum>
void to_json(nlohmann::ordered_json& json, Enum value) = delete;
}  // namespace causeway::analysis

namespace causeway::tracedb {
template <report::detail::ScopedEnum Enum>
void to_json(nlohmann::json& json, Enum value) = delete;
template <report::detail::ScopedEnum Enum>
void to_json(nlohmann::ordered_json& json, Enum value) = delete;
}  // namespace causeway::tracedb

namespace causeway::fleet {
template <report::detail::ScopedEnum Enum>
void to_json(nlohmann::json& json, Enum value) = delete;
template <report::detail::ScopedEnum Enum>
void to_json(nlohmann::ordered_json& json, Enum value) = delete;
}  // namespace causeway::fleet
