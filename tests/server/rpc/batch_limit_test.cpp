// A JSON-RPC batch shares one time limit: eight runaway queries in one batch once took eight
// times the query limit (16 s); now the first is stopped when the batch's time is spent and the
// rest are refused without running.
#include <catch2/catch.hpp>

#include <chrono>
#include <string>

#include "server/rpc/protocol.hpp"
#include "tests/server/rpc/dispatcher_harness.hpp"

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

TEST_CASE("a batch's messages and answer bytes are bounded: the rest get -31002, not run") {
    using causeway::server::error_code::kBatchTooLarge;
    auto batch_of = [](const std::string& method, int count) {
        json batch = json::array();
        for (int i = 0; i < count; ++i) {
            batch.push_back({{"jsonrpc", "2.0"}, {"id", i}, {"method", method}});
        }
        return batch;
    };
    {
        DispatcherHarness harness;
        harness.initialize();
        json answers = harness.send(batch_of("ping", 1000));
        REQUIRE(answers.size() == 1000);
        CHECK(answers[255]["result"] == json::object());
        CHECK(answers[256]["error"]["code"] == kBatchTooLarge);
        CHECK(answers[999]["id"] == 999);
        CHECK(answers[999]["error"]["message"].get<std::string>().find("at most 256 messages") !=
              std::string::npos);
    }
    // tools/list answers are kilobytes each: a 64 KiB budget stops them after a few.
    DispatcherHarness harness(causeway::server::make_causeway_catalog(),
                              {.max_batch_messages = 256, .batch_answer_bytes = 64 << 10});
    harness.initialize();
    json answers = harness.send(batch_of("tools/list", 200));
    REQUIRE(answers.size() == 200);
    std::size_t answered = 0;
    for (const auto& answer : answers) {
        answered += answer.contains("result") ? 1 : 0;
    }
    const std::size_t one_answer = answers[0].dump().size();
    CHECK(answered >= 1);
    CHECK(answered <= (64 << 10) / one_answer + 1);
    CHECK(answers[199]["error"]["code"] == kBatchTooLarge);
    CHECK(answers[199]["error"]["message"].get<std::string>().find("reached 65536 bytes") !=
          std::string::npos);
    CHECK(answers.dump().size() < (64 << 10) + one_answer + 200 * 256);
}
