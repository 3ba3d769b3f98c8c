#include "analysis/sql/sql_function_guards.hpp"

#include <array>
#include <cctype>
#include <optional>
#include <string>

namespace causeway::analysis {

// Why a call is refused, or nothing when it may run.
using SqlCallCheck = std::optional<std::string> (*)(int argc, sqlite3_value** args,
                                                    int max_value_bytes);

struct SqlGuardedFunction {
    const char* name;
    int argc;  // -1: any number (printf)
    SqlCallCheck check;
};

namespace {

// |first| x |second|: the comparisons of a naive search of one in the other.
std::optional<std::string> check_product(int, sqlite3_value** args, int) {
    const std::int64_t a = sqlite3_value_bytes(args[0]);
    const std::int64_t b = sqlite3_value_bytes(args[1]);
    if (b == 0 || a <= kMaxComparisonsPerCall / b) {
        return std::nullopt;
    }
    return "on values of " + std::to_string(a) + " and " + std::to_string(b) +
           " bytes is refused: one call could make " + std::to_string(a * b) +
           " comparisons, more than the " + std::to_string(kMaxComparisonsPerCall) +
           " a call may (a running function cannot be stopped by the time limit); use shorter "
           "values";
}

// printf's widths and precisions, literal ("%2000000c") or from an argument ("%.*c"): SQLite
// pads and repeats up to them even once the value has hit the length limit.
std::optional<std::string> check_printf(int argc, sqlite3_value** args, int max_value_bytes) {
    if (argc < 1 || sqlite3_value_type(args[0]) == SQLITE_NULL) {
        return std::nullopt;
    }
    const auto* format = reinterpret_cast<const char*>(sqlite3_value_text(args[0]));
    int next_arg = 1;
    const auto too_big = [&](std::int64_t size) -> std::optional<std::string> {
        if (size <= max_value_bytes && size >= -static_cast<std::int64_t>(max_value_bytes)) {
            return std::nullopt;
        }
        return "with a width or precision of " + std::to_string(size) +
               " is refused: values are capped at " + std::to_string(max_value_bytes) + " bytes";
    };
    // One width or precision at `p`: '*' takes the next argument, digits are literal.
    const auto size_at = [&](const char*& p) -> std::optional<std::string> {
        if (*p == '*') {
            ++p;
            return too_big(next_arg < argc ? sqlite3_value_int64(args[next_arg++]) : 0);
        }
        std::int64_t size = 0;
        for (; std::isdigit(static_cast<unsigned char>(*p)) != 0; ++p) {
            size = size > max_value_bytes ? size : size * 10 + (*p - '0');
        }
        return too_big(size);
    };
    for (const char* p = format; p != nullptr && *p != '\0'; ++p) {
        if (*p != '%') {
            continue;
        }
        ++p;
        while (*p != '\0' && std::string_view("-+ #!0,").find(*p) != std::string_view::npos) {
            ++p;
        }
        if (auto refusal = size_at(p)) {
            return refusal;
        }
        if (*p == '.') {
            ++p;
            if (auto refusal = size_at(p)) {
                return refusal;
            }
        }
        while (*p == 'l') {
            ++p;
        }
        if (*p == '\0') {
            break;
        }
        if (*p != '%') {
            ++next_arg;  // the conversion's value
        }
    }
    return std::nullopt;
}

constexpr std::array<SqlGuardedFunction, 10> kGuarded{{
    {"printf", -1, check_printf},
    {"format", -1, check_printf},
    {"instr", 2, check_product},
    {"replace", 3, check_product},
    {"trim", 2, check_product},
    {"ltrim", 2, check_product},
    {"rtrim", 2, check_product},
    {"like", 2, check_product},  // X LIKE Y is like(Y, X)
    {"like", 3, check_product},  // ... ESCAPE Z
    {"glob", 2, check_product},
}};

void guarded_call(sqlite3_context* context, int argc, sqlite3_value** args) {
    const auto* registration =
        static_cast<const SqlFunctionGuards::Registration*>(sqlite3_user_data(context));
    const SqlGuardedFunction& function = *registration->function;
    if (auto refusal = function.check(argc, args, registration->guards->max_value_bytes())) {
        const std::string message = std::string(function.name) + "() " + *refusal;
        sqlite3_result_error(context, message.c_str(), -1);
        return;
    }
    registration->guards->call_builtin(context, function.name, argc, args);
}

}  // namespace

Result<std::unique_ptr<SqlFunctionGuards>> SqlFunctionGuards::install(sqlite3* db,
                                                                      int max_value_bytes) {
    sqlite3* builtin = nullptr;
    if (sqlite3_open_v2(":memory:", &builtin, SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY,
                        nullptr) != SQLITE_OK) {
        sqlite3_close(builtin);
        return Error{"cannot open the in-memory connection that evaluates guarded SQL functions"};
    }
    sqlite3_limit(builtin, SQLITE_LIMIT_LENGTH, max_value_bytes);
    std::unique_ptr<SqlFunctionGuards> guards(new SqlFunctionGuards(builtin, max_value_bytes));
    for (const SqlGuardedFunction& function : kGuarded) {
        guards->registrations_.push_back({guards.get(), &function});
    }
    for (std::size_t i = 0; i < kGuarded.size(); ++i) {
        if (sqlite3_create_function_v2(
                db, kGuarded[i].name, kGuarded[i].argc, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
                &guards->registrations_[i], guarded_call, nullptr, nullptr, nullptr) != SQLITE_OK) {
            return Error{std::string("cannot guard the SQL function ") + kGuarded[i].name + ": " +
                         sqlite3_errmsg(db)};
        }
    }
    return guards;
}

SqlFunctionGuards::~SqlFunctionGuards() {
    for (auto& [key, statement] : statements_) {
        sqlite3_finalize(statement);
    }
    sqlite3_close_v2(builtin_);
}

void SqlFunctionGuards::call_builtin(sqlite3_context* context, const char* name, int argc,
                                     sqlite3_value** args) {
    sqlite3_stmt*& raw = statements_[{name, argc}];
    if (raw == nullptr) {
        std::string sql = std::string("SELECT ") + name + "(";
        for (int i = 1; i <= argc; ++i) {
            sql += (i > 1 ? ",?" : "?") + std::to_string(i);
        }
        sql += ")";
        if (sqlite3_prepare_v2(builtin_, sql.c_str(), -1, &raw, nullptr) != SQLITE_OK) {
            sqlite3_result_error(context, sqlite3_errmsg(builtin_), -1);
            return;
        }
    }
    for (int i = 0; i < argc; ++i) {
        sqlite3_bind_value(raw, i + 1, args[i]);
    }
    const int rc = sqlite3_step(raw);
    if (rc == SQLITE_ROW) {
        sqlite3_result_value(context, sqlite3_column_value(raw, 0));
    } else if (rc == SQLITE_TOOBIG) {
        sqlite3_result_error_toobig(context);
    } else if (rc == SQLITE_NOMEM) {
        sqlite3_result_error_nomem(context);
    } else {
        sqlite3_result_error(context, sqlite3_errmsg(builtin_), -1);
    }
    sqlite3_reset(raw);
    sqlite3_clear_bindings(raw);
}

}  // namespace causeway::analysis
