#pragma once
// The tool JSON Schemas of schemas/tools/, embedded at build time so that the server announces
// exactly the files the tests validate against.

#include <string_view>

#include <nlohmann/json.hpp>

namespace causeway::server {

// The schema in schemas/tools/<file_name> (e.g. "run_sql.input.json"). A missing or malformed
// file is a build defect: this throws std::logic_error naming it, caught in main at start-up.
nlohmann::json tool_schema(std::string_view file_name);

}  // namespace causeway::server
