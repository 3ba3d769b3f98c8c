// A JSON-RPC batch shares one time limit: eight runaway queries in one batch once took eight
// times the query limit (16 s); now the first is stopped when the batch's time is spent and the
// rest are refused without running.
#include <catch2/catch.hpp>

#include <chrono>
#include <string>

#include "server/rpc/protocol.hpp"
#include "tests/server/dispatcher_harness.hpp"

using causeway::testing::DispatcherHarness;
using nlohmann::json;

namespace {

std::string text_of(const json& response) {
    return response["result"]["content"][0]["text"].get<std::string>();
}

}  // namespace

TEST_CASE("a batch shares one time limit: requests after it are not run") {
    DispatcherHarness harness(causeway::server::make_causeway_catalog(),
                              {.batch_time_limit = std::chrono::milliseconds(300)});
    harness.initialize();
    // Eight queries that never end on their own: on their own each would run its full 2 s.
    json batch = json::array();
    for (int i = 0; i < 8; ++i) {
        batch.push_back(
            {{"jsonrpc", "2.0"},
             {"id", i},
             {"method", "tools/call"},
             {"params",
              {{"name", "run_sql"},
               {"arguments",
                {{"sql", "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + " +
                             std::to_string(i + 1) + " FROM n) SELECT count(*) FROM n"}}}}}});
    }
    json answers = harness.send(batch);
    REQUIRE(answers.size() == 8);
    // The first is stopped when the batch's time is spent, not after its own 2 s; the others
    // are refused without running.
    CHECK(answers[0]["result"]["isError"] == true);
    CHECK(text_of(answers[0]).find("longer than") != std::string::npos);
    CHECK(text_of(answers[0]).find("2000 ms") == std::string::npos);
    for (int i = 1; i < 8; ++i) {
        INFO(i);
        CHECK(answers[i]["id"] == i);
        CHECK(answers[i]["error"]["code"] == causeway::server::error_code::kBatchTimeLimitSpent);
        CHECK(answers[i]["error"]["message"].get<std::string>().find("time limit") !=
              std::string::npos);
    }
}
