#pragma once
// Thin RAII ownership of SQLite handles. Errors carry SQLite's own message.

#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.hpp"

namespace causeway::tracedb {

struct DatabaseCloser {
    void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};
struct StatementFinalizer {
    void operator()(sqlite3_stmt* stmt) const { sqlite3_finalize(stmt); }
};

class Statement {
  public:
    Statement() = default;
    explicit Statement(sqlite3_stmt* stmt) : stmt_(stmt) {}

    sqlite3_stmt* get() const { return stmt_.get(); }

    // Binding is 1-based, as in SQLite. An empty optional binds NULL.
    void bind(int index, std::int64_t value) { sqlite3_bind_int64(stmt_.get(), index, value); }
    void bind(int index, int value) { sqlite3_bind_int64(stmt_.get(), index, value); }
    void bind(int index, double value) { sqlite3_bind_double(stmt_.get(), index, value); }
    void bind(int index, std::string_view value) {
        sqlite3_bind_text(stmt_.get(), index, value.data(), static_cast<int>(value.size()),
                          SQLITE_TRANSIENT);
    }
    void bind(int index, const char* value) { bind(index, std::string_view(value)); }
    void bind(int index, const std::string& value) { bind(index, std::string_view(value)); }
    void bind_null(int index) { sqlite3_bind_null(stmt_.get(), index); }
    template <class T>
    void bind(int index, const std::optional<T>& value) {
        if (value) {
            bind(index, *value);
        } else {
            bind_null(index);
        }
    }

    // Returns SQLITE_ROW, SQLITE_DONE or an error code.
    int step() { return sqlite3_step(stmt_.get()); }
    // Keeps the bindings: callers bind every parameter before each step, and clearing 640
    // parameters of a multi-row insert after each execution is pure cost.
    void reset() { sqlite3_reset(stmt_.get()); }

    std::int64_t column_int64(int col) const { return sqlite3_column_int64(stmt_.get(), col); }
    double column_double(int col) const { return sqlite3_column_double(stmt_.get(), col); }
    bool column_is_null(int col) const {
        return sqlite3_column_type(stmt_.get(), col) == SQLITE_NULL;
    }
    std::string column_text(int col) const;
    std::optional<std::int64_t> column_optional_int64(int col) const;
    std::optional<std::string> column_optional_text(int col) const;

  private:
    std::unique_ptr<sqlite3_stmt, StatementFinalizer> stmt_;
};

// A read-only SQLite URI for `path` ("file:...?mode=ro", "&immutable=1" when asked); '%', '?'
// and '#' in the path are escaped, since they would otherwise end the file name.
std::string readonly_uri(const std::string& path, bool immutable);

class Database {
  public:
    Database() = default;
    explicit Database(sqlite3* db) : db_(db) {}

    // sqlite3_open_v2 with its return code checked: the error is SQLite's reason (the caller
    // names the file and what to do).
    static Result<Database> open(const std::string& uri, int flags);

    sqlite3* get() const { return db_.get(); }
    explicit operator bool() const { return db_ != nullptr; }

    Result<Statement> prepare(std::string_view sql) const;
    Status exec(const char* sql) const;
    std::string last_error() const { return sqlite3_errmsg(db_.get()); }
    std::int64_t last_insert_rowid() const { return sqlite3_last_insert_rowid(db_.get()); }

    // Runs a query that returns one integer (e.g. a PRAGMA); an error when it returns none.
    Result<std::int64_t> query_int64(const char* sql) const;

  private:
    std::unique_ptr<sqlite3, DatabaseCloser> db_;
};

}  // namespace causeway::tracedb
