#include "analysis/sql/readonly_sql.hpp"

#include <array>
#include <cctype>
#include <cstring>

#include "analysis/sql/sql_function_guards.hpp"
#include "analysis/sql/sql_memory_budget.hpp"
#include "tracedb/reader.hpp"

namespace causeway::analysis {
namespace {

using Clock = std::chrono::steady_clock;

// Pragmas that only read the schema or the file's identity.
constexpr std::array<const char*, 10> kReadablePragmas = {
    "table_info",       "table_xinfo",  "index_list",     "index_info", "index_xinfo",
    "foreign_key_list", "user_version", "application_id", "page_count", "page_size"};

// Pragmas that read without an argument and would write with one.
constexpr std::array<const char*, 3> kIdentityPragmas = {"user_version", "application_id",
                                                         "page_size"};

// Functions with no analytic use that can build huge values or reach outside the DB.
constexpr std::array<const char*, 8> kDeniedFunctions = {
    "zeroblob",  "randomblob", "load_extension", "readfile",
    "writefile", "edit",       "fts3_tokenizer", "sqlite_offset"};

bool equals_ignoring_case(const char* a, const char* b) {
    for (; *a != '\0' && *b != '\0'; ++a, ++b) {
        if (std::tolower(static_cast<unsigned char>(*a)) !=
            std::tolower(static_cast<unsigned char>(*b))) {
            return false;
        }
    }
    return *a == *b;
}

template <std::size_t N>
bool listed(const std::array<const char*, N>& names, const char* name) {
    for (const char* candidate : names) {
        if (name != nullptr && equals_ignoring_case(candidate, name)) {
            return true;
        }
    }
    return false;
}

struct Guard {
    Clock::time_point deadline;
    std::string refusal;  // why the authorizer said no, for the error message
    bool timed_out = false;
};

int authorize(void* user, int action, const char* arg1, const char* arg2, const char*,
              const char*) {
    auto* guard = static_cast<Guard*>(user);
    switch (action) {
        case SQLITE_SELECT:
        case SQLITE_READ:
        case SQLITE_RECURSIVE:
            return SQLITE_OK;
        case SQLITE_FUNCTION:
            // arg2 is the function name.
            if (listed(kDeniedFunctions, arg2)) {
                guard->refusal = std::string("the function ") + arg2 + "() is not allowed";
                return SQLITE_DENY;
            }
            return SQLITE_OK;
        case SQLITE_PRAGMA: {
            // arg1 is the pragma, arg2 its argument: table_info(cuda_call) passes a table to
            // read, user_version = 5 a value to write.
            bool sets_value = arg2 != nullptr && listed(kIdentityPragmas, arg1);
            if (listed(kReadablePragmas, arg1) && !sets_value) {
                return SQLITE_OK;
            }
            guard->refusal = std::string("PRAGMA ") + (arg1 != nullptr ? arg1 : "?") +
                             (sets_value ? " = ..." : "") +
                             " is not allowed (only schema pragmas such as table_info)";
            return SQLITE_DENY;
        }
        case SQLITE_ATTACH:
        case SQLITE_DETACH:
            guard->refusal = "ATTACH and DETACH are not allowed: query this trace only";
            return SQLITE_DENY;
        default:
            guard->refusal =
                "the query may only read (SELECT or WITH ... SELECT); writes, "
                "schema changes and transactions are refused";
            return SQLITE_DENY;
    }
}

int check_deadline(void* user) {
    auto* guard = static_cast<Guard*>(user);
    if (Clock::now() > guard->deadline) {
        guard->timed_out = true;
        return 1;  // interrupts the statement
    }
    return 0;
}

bool only_whitespace_or_semicolons(const char* text) {
    for (; text != nullptr && *text != '\0'; ++text) {
        if (!std::isspace(static_cast<unsigned char>(*text)) && *text != ';') {
            return false;
        }
    }
    return true;
}

// The first `max_bytes` of `text`, not splitting a UTF-8 sequence.
std::string_view utf8_prefix(std::string_view text, std::size_t max_bytes) {
    if (text.size() <= max_bytes) {
        return text;
    }
    std::size_t end = max_bytes;
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) {
        --end;  // text[end] continues a sequence: cut before the sequence starts
    }
    return text.substr(0, end);
}

// The value of one column, texts cut at `max_text_bytes` (counted in `cut_values`): a 1 MiB
// value per cell times a thousand rows was a gigabyte copied out only to be cut later.
SqlValue column_value(sqlite3_stmt* stmt, int col, std::size_t max_text_bytes,
                      std::size_t& cut_values) {
    switch (sqlite3_column_type(stmt, col)) {
        case SQLITE_INTEGER:
            return static_cast<std::int64_t>(sqlite3_column_int64(stmt, col));
        case SQLITE_FLOAT:
            return sqlite3_column_double(stmt, col);
        case SQLITE_TEXT: {
            const std::string_view text(
                reinterpret_cast<const char*>(sqlite3_column_text(stmt, col)),
                static_cast<std::size_t>(sqlite3_column_bytes(stmt, col)));
            const std::string_view kept = utf8_prefix(text, max_text_bytes);
            cut_values += kept.size() < text.size() ? 1 : 0;
            return std::string(kept);
        }
        case SQLITE_BLOB:
            return SqlBlob{sqlite3_column_bytes(stmt, col)};
        default:
            return nullptr;
    }
}

std::size_t text_bytes(const std::vector<SqlValue>& row) {
    std::size_t bytes = 0;
    for (const auto& value : row) {
        if (const auto* text = std::get_if<std::string>(&value)) {
            bytes += text->size();
        }
    }
    return bytes;
}

// Why the query stopped with `rc`, in words that say what to change.
Error failure(sqlite3* db, int rc, const Guard& guard, const SqlMemoryBudget& budget,
              const SqlLimits& limits) {
    if (guard.timed_out) {
        return Error{"the query ran longer than " + std::to_string(limits.time_limit.count()) +
                     " ms and was stopped: narrow it with WHERE (e.g. a ts_ns range) or "
                     "aggregate less"};
    }
    if (rc == SQLITE_NOMEM && budget.exceeded()) {
        return Error{"the query needed more than " + std::to_string(limits.max_memory_bytes >> 20) +
                     " MiB of memory and was stopped: aggregate more, select fewer columns or "
                     "rows, or narrow it with WHERE"};
    }
    if (rc == SQLITE_TOOBIG) {
        return Error{"a value grew beyond " + std::to_string(limits.max_value_bytes) +
                     " bytes and the query was stopped: build smaller strings or blobs"};
    }
    return Error{std::string("SQL error: ") + sqlite3_errmsg(db)};
}

}  // namespace

Result<SqlResult> run_readonly_sql(const std::string& db_path, const std::string& sql,
                                   const SqlLimits& limits) {
    if (!SqlMemoryBudget::enforced()) {
        return Error{
            "SQL queries are disabled in this program: SQLite was initialised before the "
            "per-query memory budget could be installed"};
    }
    auto reader = tracedb::TraceReader::open(db_path);
    if (!reader) {
        return reader.error();
    }
    sqlite3* db = reader->db().get();
    // Sorts and temporary tables in memory, where the budget bounds them, not in files.
    if (auto in_memory = reader->db().exec("PRAGMA temp_store = MEMORY"); !in_memory) {
        return in_memory.error();
    }
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, limits.max_value_bytes);
    sqlite3_limit(db, SQLITE_LIMIT_SQL_LENGTH, 100'000);
    sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
    sqlite3_limit(db, SQLITE_LIMIT_COLUMN, 256);  // bounds one row: 256 x max_text_bytes
    auto guards = SqlFunctionGuards::install(db, limits.max_value_bytes);
    if (!guards) {
        return guards.error();
    }
    // Declared after the connection and the guards: ends after the statement is finalised.
    SqlMemoryBudget budget(limits.max_memory_bytes);
    Guard guard{Clock::now() + limits.time_limit, {}, false};
    sqlite3_set_authorizer(db, authorize, &guard);
    sqlite3_progress_handler(db, 1000, check_deadline, &guard);

    sqlite3_stmt* raw = nullptr;
    const char* tail = nullptr;
    int rc = sqlite3_prepare_v2(db, sql.c_str(), static_cast<int>(sql.size()), &raw, &tail);
    tracedb::Statement stmt(raw);
    if (rc != SQLITE_OK) {
        if (rc == SQLITE_AUTH && !guard.refusal.empty()) {
            return Error{"refused: " + guard.refusal};
        }
        if (rc != SQLITE_ERROR) {
            return failure(db, rc, guard, budget, limits);
        }
        return Error{std::string("SQL error: ") + sqlite3_errmsg(db) +
                     " (tables: session, process, thread, cuda_op, cuda_call, offcpu, "
                     "thread_sched_total, page_alloc, system_snapshot, data_quality, ...)"};
    }
    if (raw == nullptr) {
        return Error{"the SQL text holds no statement: pass one SELECT"};
    }
    if (!only_whitespace_or_semicolons(tail)) {
        return Error{"pass exactly one statement: text follows the first one (\"" +
                     std::string(tail).substr(0, 40) + "\")"};
    }
    if (sqlite3_stmt_readonly(raw) == 0) {
        return Error{"refused: the statement would write; only reading queries are allowed"};
    }
    auto start = Clock::now();
    SqlResult result;
    int columns = sqlite3_column_count(raw);
    for (int c = 0; c < columns; ++c) {
        const char* name = sqlite3_column_name(raw, c);
        result.columns.emplace_back(name != nullptr ? name : "");
    }
    std::size_t skipped = 0;
    std::size_t kept_bytes = 0;
    while ((rc = stmt.step()) == SQLITE_ROW) {
        if (skipped < limits.skip_rows) {
            ++skipped;
            continue;
        }
        if (result.rows.size() == limits.max_rows) {
            result.truncated = true;
            break;
        }
        std::vector<SqlValue> row;
        row.reserve(static_cast<std::size_t>(columns));
        std::size_t row_cuts = 0;
        for (int c = 0; c < columns; ++c) {
            row.push_back(column_value(raw, c, limits.max_text_bytes, row_cuts));
        }
        kept_bytes += text_bytes(row);
        if (kept_bytes > limits.max_result_bytes && !result.rows.empty()) {
            result.truncated = true;
            break;
        }
        result.cut_values += row_cuts;
        result.rows.push_back(std::move(row));
    }
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        return failure(db, rc, guard, budget, limits);
    }
    result.elapsed_ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
    return result;
}

}  // namespace causeway::analysis
