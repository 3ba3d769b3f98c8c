#pragma once
// The trace-DB schema as shipped in schemas/trace.sql, and the identity a file must carry.

#include <cstdint>
#include <string_view>

namespace causeway::tracedb {

// PRAGMA application_id of every Causeway trace DB: 'CAUS'.
inline constexpr std::int64_t kApplicationId = 0x43415553;
// PRAGMA user_version written by this build; readers accept 1..kSchemaVersion.
inline constexpr std::int64_t kSchemaVersion = 6;

// The full text of schemas/trace.sql, embedded at build time.
std::string_view schema_sql();

}  // namespace causeway::tracedb
