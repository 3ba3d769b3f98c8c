#pragma once
// SQLite functions whose ONE call can run for seconds or minutes, out of reach of the time
// limit: SQLite's progress handler runs between VM instructions, never inside a function, and
// sqlite3_interrupt is only noticed there too. Measured on SQLite 3.40 with values capped at
// 1 MiB (SQLITE_LIMIT_LENGTH):
//   printf('%.*c', 2147483647, 'x')  loops 2^31 times after the cap is hit: 8-15 s per call;
//   instr(X, Y), replace(X, Y, Z)    compare |X| x |Y| bytes: 5 s for 1 MB x 100 kB;
//   X LIKE Y, GLOB                   |X| x |Y| steps: 63 s for a 400 kB text and a 40 kB pattern;
//   trim(X, Y), ltrim, rtrim         |X| x |Y| character comparisons.
// Each is replaced on the query's connection by a guard that looks at the arguments first and
// refuses a call whose work passes a bound (an error that names the function and the sizes);
// a call within the bound is evaluated by SQLite's own built-in on a private in-memory
// connection, so results are exactly SQLite's.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <sqlite3.h>

#include "base/result.hpp"

namespace causeway::analysis {

// Most byte (or character) comparisons one guarded call may need: about 0.1 s for the slowest
// of them (LIKE), far above what a real query on a trace needs (a 10 kB command line searched
// for a 3 kB text is 3e7).
inline constexpr std::int64_t kMaxComparisonsPerCall = 32 * 1024 * 1024;

struct SqlGuardedFunction;  // a function, its arity and its check (sql_function_guards.cpp)

class SqlFunctionGuards {
  public:
    // Installs the guards on `db` for values of at most `max_value_bytes` (printf widths and
    // precisions above it are refused). The guards must outlive every statement of `db`.
    static Result<std::unique_ptr<SqlFunctionGuards>> install(sqlite3* db, int max_value_bytes);
    ~SqlFunctionGuards();
    SqlFunctionGuards(const SqlFunctionGuards&) = delete;
    SqlFunctionGuards& operator=(const SqlFunctionGuards&) = delete;

    // Evaluates built-in `name` with `args` on the private connection and sets the result.
    void call_builtin(sqlite3_context* context, const char* name, int argc, sqlite3_value** args);
    int max_value_bytes() const { return max_value_bytes_; }

    // What sqlite3_user_data of a guarded function points to.
    struct Registration {
        SqlFunctionGuards* guards;
        const SqlGuardedFunction* function;
    };

  private:
    SqlFunctionGuards(sqlite3* builtin, int max_value_bytes)
        : builtin_(builtin), max_value_bytes_(max_value_bytes) {}

    sqlite3* builtin_;  // owned; an in-memory connection where the names are still the built-ins
    int max_value_bytes_;
    std::vector<Registration> registrations_;
    // "SELECT name(?1, ...)" on builtin_, prepared once per function and argument count.
    std::map<std::pair<std::string, int>, sqlite3_stmt*> statements_;
};

}  // namespace causeway::analysis
