#include "analysis/readonly_sql.hpp"

#include <array>
#include <cctype>
#include <cstring>

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

SqlValue column_value(sqlite3_stmt* stmt, int col) {
    switch (sqlite3_column_type(stmt, col)) {
        case SQLITE_INTEGER:
            return static_cast<std::int64_t>(sqlite3_column_int64(stmt, col));
        case SQLITE_FLOAT:
            return sqlite3_column_double(stmt, col);
        case SQLITE_TEXT: {
            const auto* text = sqlite3_column_text(stmt, col);
            return std::string(reinterpret_cast<const char*>(text),
                               static_cast<std::size_t>(sqlite3_column_bytes(stmt, col)));
        }
        case SQLITE_BLOB:
            return SqlBlob{sqlite3_column_bytes(stmt, col)};
        default:
            return nullptr;
    }
}

std::string limit_hint(const SqlLimits& limits) {
    return "the query ran longer than " + std::to_string(limits.time_limit.count()) +
           " ms and was stopped: narrow it with WHERE (e.g. a ts_ns range) or aggregate less";
}

}  // namespace

Result<SqlResult> run_readonly_sql(const std::string& db_path, const std::string& sql,
                                   const SqlLimits& limits) {
    auto reader = tracedb::TraceReader::open(db_path);
    if (!reader) {
        return reader.error();
    }
    sqlite3* db = reader->db().get();
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, limits.max_value_bytes);
    sqlite3_limit(db, SQLITE_LIMIT_SQL_LENGTH, 100'000);
    sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
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
    while ((rc = stmt.step()) == SQLITE_ROW) {
        if (result.rows.size() == limits.max_rows) {
            result.truncated = true;
            break;
        }
        std::vector<SqlValue> row;
        row.reserve(static_cast<std::size_t>(columns));
        for (int c = 0; c < columns; ++c) {
            row.push_back(column_value(raw, c));
        }
        result.rows.push_back(std::move(row));
    }
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        if (guard.timed_out) {
            return Error{limit_hint(limits)};
        }
        if (rc == SQLITE_TOOBIG) {
            return Error{"a value grew beyond " + std::to_string(limits.max_value_bytes) +
                         " bytes and the query was stopped: build smaller strings or blobs"};
        }
        return Error{std::string("SQL error: ") + sqlite3_errmsg(db)};
    }
    result.elapsed_ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
    return result;
}

}  // namespace causeway::analysis
