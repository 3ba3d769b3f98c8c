// A property of every MCP tool: whatever bytes the traced system put in the names and texts a
// trace holds (process and thread names, command lines, native symbols and modules, Python files
// and functions, data-quality texts), every tool answers with valid UTF-8 JSON, never a protocol
// error. Seeded random bytes (1..255, invalid UTF-8 and control bytes included), five seeds.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include "server/methods/catalog.hpp"
#include "tests/server/rpc/dispatcher_harness.hpp"
#include "tracedb/sqlite.hpp"

using causeway::testing::DispatcherHarness;
using nlohmann::json;

namespace {

std::string random_bytes(std::mt19937& random) {
    std::uniform_int_distribution<int> length(1, 24);
    std::uniform_int_distribution<int> byte(1, 255);
    std::string text(static_cast<std::size_t>(length(random)), '\0');
    for (char& c : text) {
        c = static_cast<char>(byte(random));
    }
    return text;
}

// Sets every row's `columns` of `table` (found by `key`) to random bytes.
void scramble(const causeway::tracedb::Database& db, std::mt19937& random, const std::string& table,
              const std::string& key, const std::vector<std::string>& columns) {
    auto keys = db.prepare("SELECT " + key + " FROM " + table);
    REQUIRE(keys);
    std::vector<std::string> rows;
    while (keys->step() == SQLITE_ROW) {
        rows.push_back(keys->column_text(0));
    }
    for (const std::string& column : columns) {
        auto update =
            db.prepare("UPDATE " + table + " SET " + column + " = ?1 WHERE " + key + " = ?2");
        REQUIRE(update);
        for (const std::string& row : rows) {
            update->bind(1, random_bytes(random));
            update->bind(2, row);
            REQUIRE(update->step() == SQLITE_DONE);
            update->reset();
        }
    }
}

void scramble_trace(const std::string& path, unsigned seed) {
    auto db = causeway::tracedb::Database::open(path, SQLITE_OPEN_READWRITE);
    REQUIRE(db);
    std::mt19937 random(seed);
    scramble(*db, random, "process", "id", {"comm", "cmdline"});
    scramble(*db, random, "thread", "id", {"comm"});
    scramble(*db, random, "stack_frame", "stack_id || ':' || depth", {"symbol", "module"});
    scramble(*db, random, "stack_python_frame", "stack_id || ':' || depth", {"file", "function"});
    scramble(*db, random, "data_quality", "source || ':' || counter", {"description"});
}

// The arguments a tool needs: the one trace where it compares, a query over the names for SQL.
json arguments_for(const std::string& tool) {
    if (tool == "compare_traces") {
        return {{"before", "run"}, {"after", "run"}};
    }
    if (tool == "run_sql") {
        return {{"sql",
                 "SELECT p.comm, p.cmdline, t.comm FROM process p JOIN thread t ON "
                 "t.process_id = p.id UNION ALL SELECT symbol, module, NULL FROM stack_frame"}};
    }
    return json::object();
}

}  // namespace

TEST_CASE("random bytes in a trace's names and texts reach every MCP tool as valid UTF-8") {
    for (unsigned seed = 1; seed <= 5; ++seed) {
        DispatcherHarness harness(causeway::server::make_causeway_catalog(), {},
                                  [seed](const std::string& path) { scramble_trace(path, seed); });
        const json tools = harness.request("tools/list")["result"]["tools"];
        REQUIRE(tools.size() >= 8);  // every tool of a server without ClickHouse
        bool replaced = false;       // some invalid byte reached an answer, as U+FFFD
        for (const json& tool : tools) {
            const std::string name = tool["name"];
            INFO("seed " << seed << ", tool " << name);
            const json answer =
                harness.request("tools/call", {{"name", name}, {"arguments", arguments_for(name)}});
            REQUIRE(answer.contains("result"));
            // nlohmann's dump refuses invalid UTF-8 (type_error 316): the answer is valid.
            CHECK_NOTHROW(answer.dump());
            replaced = replaced || answer.dump().find("\xEF\xBF\xBD") != std::string::npos;
        }
        CHECK(replaced);
    }
}
