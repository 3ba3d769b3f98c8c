// The protected SQL runner: reads work; writes, ATTACH, pragma changes, memory bombs, runaway
// queries and second statements are refused by the engine with a message that says why.
#include <catch2/catch.hpp>

#include "analysis/readonly_sql.hpp"
#include "tests/analysis/fixture_builder.hpp"

using namespace causeway::analysis;
using namespace causeway::testing;

namespace {

struct SmallTrace {
    FixtureBuilder fixture;
    std::string path;

    SmallTrace() {
        auto p = fixture.process(100, "python");
        auto t = fixture.thread(p, 100, "python");
        for (int i = 0; i < 50; ++i) {
            fixture.call(t, op::kLaunchKernel, i * kMs, 10 * kUs);
        }
        fixture.load(50 * kMs);
        path = fixture.path();
    }
};

std::string refusal(const std::string& path, const std::string& sql, SqlLimits limits = {}) {
    auto result = run_readonly_sql(path, sql, limits);
    REQUIRE_FALSE(result);
    return result.error().message;
}

}  // namespace

TEST_CASE("a SELECT returns columns and rows", "[analysis][sql]") {
    SmallTrace trace;
    auto result =
        run_readonly_sql(trace.path,
                         "SELECT o.name, count(*) AS calls, sum(c.dur_ns) FROM cuda_call c "
                         "JOIN cuda_op o ON o.id = c.op_id GROUP BY o.name");
    REQUIRE(result);
    REQUIRE(result->columns.size() == 3);
    CHECK(result->columns[1] == "calls");
    REQUIRE(result->rows.size() == 1);
    CHECK(std::get<std::string>(result->rows[0][0]) == "cudaLaunchKernel");
    CHECK(std::get<std::int64_t>(result->rows[0][1]) == 50);
    CHECK(std::get<std::int64_t>(result->rows[0][2]) == 50 * 10 * kUs);
    CHECK_FALSE(result->truncated);
}

TEST_CASE("schema pragmas are readable", "[analysis][sql]") {
    SmallTrace trace;
    auto result = run_readonly_sql(trace.path, "PRAGMA table_info(cuda_call)");
    REQUIRE(result);
    CHECK(result->rows.size() == 10);
}

TEST_CASE("the row limit cuts the answer and says so", "[analysis][sql]") {
    SmallTrace trace;
    auto result = run_readonly_sql(trace.path, "SELECT ts_ns FROM cuda_call", {.max_rows = 7});
    REQUIRE(result);
    CHECK(result->rows.size() == 7);
    CHECK(result->truncated);
}

TEST_CASE("writes, ATTACH and pragma changes are refused by the engine", "[analysis][sql]") {
    SmallTrace trace;
    CHECK(refusal(trace.path, "DELETE FROM cuda_call").find("refused") != std::string::npos);
    CHECK(refusal(trace.path, "UPDATE session SET host = 'x'").find("refused") !=
          std::string::npos);
    CHECK(refusal(trace.path, "CREATE TABLE t (x)").find("refused") != std::string::npos);
    CHECK(refusal(trace.path, "ATTACH DATABASE '/tmp/x.db' AS x").find("ATTACH") !=
          std::string::npos);
    CHECK(refusal(trace.path, "PRAGMA user_version = 7").find("PRAGMA") != std::string::npos);
    CHECK(refusal(trace.path, "PRAGMA query_only = 0").find("PRAGMA") != std::string::npos);
    CHECK(refusal(trace.path, "PRAGMA journal_mode = WAL").find("PRAGMA") != std::string::npos);
    CHECK(refusal(trace.path, "SELECT 1; DELETE FROM cuda_call").find("exactly one") !=
          std::string::npos);
    // Nothing changed.
    auto count = run_readonly_sql(trace.path, "SELECT count(*) FROM cuda_call");
    REQUIRE(count);
    CHECK(std::get<std::int64_t>(count->rows[0][0]) == 50);
}

TEST_CASE("memory bombs and runaway queries are stopped", "[analysis][sql]") {
    SmallTrace trace;
    CHECK(refusal(trace.path, "SELECT zeroblob(1000000000)").find("zeroblob") != std::string::npos);
    CHECK(refusal(trace.path, "SELECT randomblob(1000000000)").find("randomblob") !=
          std::string::npos);
    // printf may not build a value past the length limit: SQLite gives up and yields NULL
    // instead of allocating a gigabyte.
    auto huge = run_readonly_sql(trace.path, "SELECT printf('%.*c', 1000000000, 'x')");
    REQUIRE(huge);
    CHECK(std::holds_alternative<std::nullptr_t>(huge->rows[0][0]));
    CHECK(refusal(trace.path,
                  "SELECT length(group_concat(printf('%.*c', 500000, 'x'))) "
                  "FROM cuda_call")
              .find("bytes") != std::string::npos);
    CHECK(refusal(trace.path,
                  "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) "
                  "SELECT count(*) FROM n",
                  {.time_limit = std::chrono::milliseconds(200)})
              .find("longer than 200 ms") != std::string::npos);
}

TEST_CASE("bad SQL names the problem", "[analysis][sql]") {
    SmallTrace trace;
    CHECK(refusal(trace.path, "SELECT * FROM no_such_table").find("no such table") !=
          std::string::npos);
    CHECK(refusal(trace.path, "   ").find("no statement") != std::string::npos);
}
