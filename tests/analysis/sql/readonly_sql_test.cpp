// The protected SQL runner: reads work; writes, ATTACH, pragma changes, memory bombs, runaway
// queries and second statements are refused by the engine with a message that says why.
#include <catch2/catch.hpp>

#include <sqlite3.h>

#include <thread>

#include "analysis/sql/readonly_sql.hpp"
#include "analysis/sql/sql_memory_budget.hpp"
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

TEST_CASE("a function call that would outlast the time limit is refused before it runs",
          "[analysis][sql]") {
    SmallTrace trace;
    // SQLite 3.40 keeps looping to the precision once the length limit is hit: 2^31 iterations
    // of one call that no progress handler can stop (8-15 s each, three in one query 24 s).
    for (const char* sql :
         {"SELECT printf('%.*c', 2147483647, 'x') AS a, printf('%.*c', 2147483647, 'x') AS b",
          "SELECT format('%.*c', -2147483647, 'x')", "SELECT printf('%2000000000c', 'x')",
          "SELECT printf('%.2000000000s', 'x')"}) {
        INFO(sql);
        CHECK(refusal(trace.path, sql).find("width or precision") != std::string::npos);
    }
    // Searches that compare |X| x |Y| bytes in one call: 5 s for instr on 1 MB x 100 kB, 63 s
    // for a LIKE of a 40 kB pattern over a 400 kB text.
    const std::string big = "printf('%.*c', 1000000, 'a')";
    const std::string needle = "(printf('%.*c', 100000, 'a') || 'b')";
    for (const std::string& call :
         {"instr(" + big + ", " + needle + ")", "replace(" + big + ", " + needle + ", 'x')",
          "trim(" + big + ", " + needle + ")", "ltrim(" + big + ", " + needle + ")",
          big + " LIKE ('%' || " + needle + ")", big + " GLOB ('*' || " + needle + ")",
          big + " LIKE " + needle + " ESCAPE '!'"}) {
        INFO(call);
        CHECK(refusal(trace.path, "SELECT " + call).find("comparisons") != std::string::npos);
    }
    // Within the bounds they are SQLite's own functions.
    auto ordinary = run_readonly_sql(
        trace.path,
        "SELECT printf('%5.1f|%-4s|%.*c', 3.14159, 'ab', 3, 'z'), instr('python3 train.py', "
        "'train'), replace('a-b-c', '-', '+'), trim('xxhixx', 'x'), 'Abc' LIKE 'a%', "
        "'abc' GLOB 'a*', '50%' LIKE '50!%' ESCAPE '!', format('%d', 7)");
    REQUIRE(ordinary);
    const auto& row = ordinary->rows.at(0);
    CHECK(std::get<std::string>(row[0]) == "  3.1|ab  |zzz");
    CHECK(std::get<std::int64_t>(row[1]) == 9);
    CHECK(std::get<std::string>(row[2]) == "a+b+c");
    CHECK(std::get<std::string>(row[3]) == "hi");
    CHECK(std::get<std::int64_t>(row[4]) == 1);
    CHECK(std::get<std::int64_t>(row[5]) == 1);
    CHECK(std::get<std::int64_t>(row[6]) == 1);
    CHECK(std::get<std::string>(row[7]) == "7");
}

TEST_CASE("a query's SQLite memory is bounded per query, not per process", "[analysis][sql]") {
    SmallTrace trace;
    REQUIRE(SqlMemoryBudget::enforced());
    // 200k distinct 100-byte texts in a temporary b-tree: ~25 MB, in memory (temp_store).
    const std::string hungry =
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200000) "
        "SELECT count(DISTINCT printf('%100d', i)) FROM n";
    const std::string message = refusal(
        trace.path, hungry, {.time_limit = std::chrono::seconds(60), .max_memory_bytes = 8 << 20});
    CHECK(message.find("needed more than 8 MiB") != std::string::npos);
    auto enough =
        run_readonly_sql(trace.path, hungry,
                         {.time_limit = std::chrono::seconds(60), .max_memory_bytes = 512 << 20});
    REQUIRE(enough);
    CHECK(std::get<std::int64_t>(enough->rows[0][0]) == 200000);
}

TEST_CASE("a thread's memory budget leaves other threads' SQLite work alone", "[analysis][sql]") {
    SqlMemoryBudget budget(1 << 20);
    std::int64_t built_bytes = 0;
    std::thread other([&built_bytes] {
        sqlite3* db = nullptr;
        REQUIRE(sqlite3_open(":memory:", &db) == SQLITE_OK);
        sqlite3_stmt* stmt = nullptr;
        REQUIRE(sqlite3_prepare_v2(db, "SELECT length(randomblob(16000000))", -1, &stmt, nullptr) ==
                SQLITE_OK);
        if (sqlite3_step(stmt) == SQLITE_ROW) {
            built_bytes = sqlite3_column_int64(stmt, 0);
        }
        sqlite3_finalize(stmt);
        sqlite3_close(db);
    });
    other.join();
    CHECK(built_bytes == 16000000);
    CHECK_FALSE(budget.exceeded());
    CHECK(budget.peak_bytes() < (1 << 20));
}

TEST_CASE(
    "what is copied out is bounded: long texts cut, rows stop at a byte budget, skipped "
    "rows are not kept",
    "[analysis][sql]") {
    SmallTrace trace;
    // A thousand rows of 1 MB values was a gigabyte copied out; now 64 bytes of each.
    auto cut = run_readonly_sql(
        trace.path,
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000) "
        "SELECT printf('%.*c', 1000000, 'x') || 'é' FROM n",
        {.max_rows = 1000,
         .time_limit = std::chrono::seconds(60),
         .max_text_bytes = 64,
         .max_result_bytes = 64 * 1000});
    REQUIRE(cut);
    CHECK(cut->rows.size() == 1000);
    CHECK(cut->cut_values == 1000);
    CHECK(std::get<std::string>(cut->rows[0][0]) == std::string(64, 'x'));
    CHECK_FALSE(cut->truncated);
    auto utf8 = run_readonly_sql(trace.path, "SELECT 'aaé'", {.max_text_bytes = 3});
    REQUIRE(utf8);
    CHECK(std::get<std::string>(utf8->rows[0][0]) == "aa");  // never half a character
    auto bounded = run_readonly_sql(trace.path, "SELECT printf('%.*c', 100, 'y') FROM cuda_call",
                                    {.max_result_bytes = 1000});
    REQUIRE(bounded);
    CHECK(bounded->rows.size() == 10);
    CHECK(bounded->truncated);
    auto page = run_readonly_sql(trace.path, "SELECT ts_ns FROM cuda_call ORDER BY ts_ns",
                                 {.skip_rows = 45, .max_rows = 10});
    REQUIRE(page);
    CHECK(page->rows.size() == 5);
    CHECK(std::get<std::int64_t>(page->rows[0][0]) == 45 * kMs);
    CHECK_FALSE(page->truncated);
}

TEST_CASE("bad SQL names the problem", "[analysis][sql]") {
    SmallTrace trace;
    CHECK(refusal(trace.path, "SELECT * FROM no_such_table").find("no such table") !=
          std::string::npos);
    CHECK(refusal(trace.path, "   ").find("no statement") != std::string::npos);
}
