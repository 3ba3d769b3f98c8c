#include "tracedb/sqlite.hpp"

namespace causeway::tracedb {

std::string Statement::column_text(int col) const {
    const auto* text = sqlite3_column_text(stmt_.get(), col);
    if (text == nullptr) {
        return {};
    }
    return std::string(reinterpret_cast<const char*>(text),
                       static_cast<size_t>(sqlite3_column_bytes(stmt_.get(), col)));
}

std::optional<std::int64_t> Statement::column_optional_int64(int col) const {
    if (column_is_null(col)) {
        return std::nullopt;
    }
    return column_int64(col);
}

std::optional<std::string> Statement::column_optional_text(int col) const {
    if (column_is_null(col)) {
        return std::nullopt;
    }
    return column_text(col);
}

std::string readonly_uri(const std::string& path, bool immutable) {
    std::string uri = "file:";
    for (char c : path) {
        if (c == '%' || c == '?' || c == '#') {
            static constexpr char kHex[] = "0123456789ABCDEF";
            uri += '%';
            uri += kHex[(static_cast<unsigned char>(c) >> 4) & 0xF];
            uri += kHex[static_cast<unsigned char>(c) & 0xF];
        } else {
            uri += c;
        }
    }
    uri += immutable ? "?mode=ro&immutable=1" : "?mode=ro";
    return uri;
}

Result<Database> Database::open(const std::string& uri, int flags) {
    sqlite3* raw = nullptr;
    const int rc = sqlite3_open_v2(uri.c_str(), &raw, flags, nullptr);
    Database db(raw);
    if (rc != SQLITE_OK) {
        return Error{raw != nullptr ? db.last_error() : sqlite3_errstr(rc)};
    }
    return db;
}

Result<Statement> Database::prepare(std::string_view sql) const {
    sqlite3_stmt* stmt = nullptr;
    int rc = sqlite3_prepare_v3(db_.get(), sql.data(), static_cast<int>(sql.size()),
                                SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
    if (rc != SQLITE_OK) {
        return Error{"cannot prepare SQL (" + last_error() + "): " + std::string(sql)};
    }
    return Statement(stmt);
}

Status Database::exec(const char* sql) const {
    char* message = nullptr;
    int rc = sqlite3_exec(db_.get(), sql, nullptr, nullptr, &message);
    if (rc != SQLITE_OK) {
        std::string text = message != nullptr ? message : sqlite3_errstr(rc);
        sqlite3_free(message);
        return Error{text};
    }
    return Ok{};
}

Result<std::int64_t> Database::query_int64(const char* sql) const {
    auto stmt = prepare(sql);
    if (!stmt) {
        return stmt.error();
    }
    int rc = stmt->step();
    if (rc != SQLITE_ROW) {
        return Error{rc == SQLITE_DONE ? std::string("no row from: ") + sql : last_error()};
    }
    return stmt->column_int64(0);
}

}  // namespace causeway::tracedb
