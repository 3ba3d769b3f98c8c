#pragma once
// Runs one SQL query a person or an AI assistant wrote against a trace, protected by the engine
// itself, not by parsing: a read-only connection with query_only, an authorizer that allows
// only reading (no writes, no ATTACH, no pragma that changes anything, no memory-bomb
// functions), a length limit on every value, guards on the functions whose one call could
// outlast the time limit (sql_function_guards.hpp), a memory budget for SQLite's work
// (sql_memory_budget.hpp; temporary tables and sorts stay in that memory, never on disk), a
// time limit, and limits on what is copied out (rows, bytes per text, bytes in all).

#include <chrono>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "base/result.hpp"

namespace causeway::analysis {

struct SqlLimits {
    std::size_t skip_rows = 0;                   // rows read past before the first one kept
    std::size_t max_rows = 1000;                 // rows kept; the rest is cut
    std::chrono::milliseconds time_limit{2000};  // wall time of the whole query
    int max_value_bytes = 1 << 20;               // longest string or blob SQLite may build
    std::size_t max_text_bytes = 16 * 1024;      // longest text kept per value; longer is cut
    std::size_t max_result_bytes = 4 << 20;      // text kept in all rows; later rows are cut
    std::int64_t max_memory_bytes = 128 << 20;   // memory SQLite may hold for the query
};

struct SqlBlob {
    std::int64_t bytes = 0;  // blobs are reported by size, never copied out
};
using SqlValue = std::variant<std::nullptr_t, std::int64_t, double, std::string, SqlBlob>;

struct SqlResult {
    std::vector<std::string> columns;
    std::vector<std::vector<SqlValue>> rows;
    bool truncated = false;      // more rows than max_rows or max_result_bytes let through
    std::size_t cut_values = 0;  // texts longer than max_text_bytes, kept cut (whole UTF-8)
    std::int64_t elapsed_ns = 0;
};

// Opens `db_path` read-only on a connection of its own and runs `sql` (exactly one statement).
// Errors say what was refused and what to do instead.
Result<SqlResult> run_readonly_sql(const std::string& db_path, const std::string& sql,
                                   const SqlLimits& limits = {});

}  // namespace causeway::analysis
