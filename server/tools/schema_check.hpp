#pragma once
// Checks tool arguments against the tool's input JSON Schema (schemas/tools/*.input.json), so that
// bad arguments are refused in one place with a message naming the argument and the rule.
// Supports the keywords those schemas use: type, properties, required, additionalProperties
// (boolean), enum, minimum, maximum, minLength, maxLength, items, maxItems.

#include <string>

#include <nlohmann/json.hpp>

namespace causeway::server {

// Empty when `value` satisfies `schema`; otherwise what is wrong, e.g.
// "argument 'limit' must be at most 100 (got 500)".
std::string schema_violation(const nlohmann::json& schema, const nlohmann::json& value);

}  // namespace causeway::server
