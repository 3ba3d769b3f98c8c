#pragma once
// Runs one SQL query a person or an AI assistant wrote against a trace, protected by the engine
// itself, not by parsing: a read-only connection with query_only, an authorizer that allows
// only reading (no writes, no ATTACH, no pragma that changes anything, no memory-bomb
// functions), a length limit on every value, a time limit and a row limit.

#include <chrono>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "tracedb/result.hpp"

namespace causeway::analysis {

struct SqlLimits {
    std::size_t max_rows = 1000;                 // rows returned; the rest is cut
    std::chrono::milliseconds time_limit{2000};  // wall time of the whole query
    int max_value_bytes = 1 << 20;               // longest string or blob SQLite may build
};

struct SqlBlob {
    std::int64_t bytes = 0;  // blobs are reported by size, never copied out
};
using SqlValue = std::variant<std::nullptr_t, std::int64_t, double, std::string, SqlBlob>;

struct SqlResult {
    std::vector<std::string> columns;
    std::vector<std::vector<SqlValue>> rows;
    bool truncated = false;  // more rows than max_rows
    std::int64_t elapsed_ns = 0;
};

// Opens `db_path` read-only on a connection of its own and runs `sql` (exactly one statement).
// Errors say what was refused and what to do instead.
Result<SqlResult> run_readonly_sql(const std::string& db_path, const std::string& sql,
                                   const SqlLimits& limits = {});

}  // namespace causeway::analysis
