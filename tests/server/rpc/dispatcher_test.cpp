// The JSON-RPC dispatcher: every method, both protocol eras, error codes, notifications.
#include <catch2/catch.hpp>

#include "report/shapes/comparison.hpp"
#include "server/rpc/protocol.hpp"
#include "server/tools/schema_check.hpp"
#include "tests/server/rpc/dispatcher_harness.hpp"

using causeway::testing::DispatcherHarness;
using nlohmann::json;

namespace {

int error_code_of(const json& response) {
    return response.at("error").at("code").get<int>();
}

}  // namespace

TEST_CASE("initialize negotiates every initialize-era revision and falls back to the latest") {
    for (const char* revision : {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}) {
        DispatcherHarness harness;
        json response = harness.initialize(revision);
        CHECK(response["result"]["protocolVersion"] == revision);
        CHECK(response["result"]["serverInfo"]["name"] == "causeway");
        CHECK(response["result"]["capabilities"].contains("tools"));
        CHECK(response["result"]["capabilities"].contains("prompts"));
        CHECK(response["result"]["capabilities"].contains("resources"));
        CHECK(response["result"]["capabilities"].contains("logging"));
        CHECK(response["result"]["capabilities"].contains("completions"));
        CHECK_FALSE(response["result"].contains("resultType"));
    }
    DispatcherHarness harness;
    CHECK(harness.initialize("1999-01-01")["result"]["protocolVersion"] == "2025-11-25");
    CHECK(error_code_of(harness.request("initialize", json::object())) == -32602);
}

TEST_CASE("ping answers an empty object in both eras") {
    DispatcherHarness harness;
    harness.initialize();
    CHECK(harness.request("ping")["result"] == json::object());
    json stateless = harness.stateless("ping");
    CHECK(stateless["result"]["resultType"] == "complete");
}

TEST_CASE("server/discover lists every revision, capabilities and a cache hint") {
    DispatcherHarness harness;
    json result = harness.request("server/discover")["result"];
    auto versions = result["supportedVersions"].get<std::vector<std::string>>();
    CHECK(versions.front() == "2026-07-28");
    CHECK(std::find(versions.begin(), versions.end(), "2024-11-05") != versions.end());
    CHECK(result["capabilities"].contains("tools"));
    CHECK(result["serverInfo"]["name"] == "causeway");
    CHECK(result["resultType"] == "complete");
    CHECK(result["_meta"][causeway::server::kMetaServerInfo]["name"] == "causeway");
    CHECK(result["ttlMs"].get<int>() > 0);
    CHECK(result["cacheScope"] == "private");
}

TEST_CASE("a stateless request naming an unknown revision is -32022 with the supported list") {
    DispatcherHarness harness;
    json response = harness.request(
        "tools/list", {{"_meta", {{causeway::server::kMetaProtocolVersion, "2030-01-01"}}}});
    CHECK(error_code_of(response) == -32022);
    CHECK(response["error"]["data"]["requested"] == "2030-01-01");
    CHECK(response["error"]["data"]["supported"].size() == 5);
    json not_a_string =
        harness.request("ping", {{"_meta", {{causeway::server::kMetaProtocolVersion, 20260728}}}});
    CHECK(error_code_of(not_a_string) == -32022);
}

TEST_CASE("tools/list announces eight read-only tools with input and output schemas") {
    DispatcherHarness harness;
    harness.initialize();
    json tools = harness.request("tools/list")["result"]["tools"];
    REQUIRE(tools.size() == 8);
    std::vector<std::string> names;
    for (const auto& tool : tools) {
        names.push_back(tool["name"]);
        CHECK(tool["inputSchema"]["type"] == "object");
        CHECK(tool["outputSchema"]["type"] == "object");
        CHECK(tool["annotations"]["readOnlyHint"] == true);
        CHECK(tool["annotations"]["openWorldHint"] == false);
        CHECK_FALSE(tool["description"].get<std::string>().empty());
    }
    for (const char* expected :
         {"get_trace_stats", "get_causal_chains", "get_per_process_breakdown", "get_stacks",
          "get_timeline", "run_sql", "get_check", "compare_traces"}) {
        CHECK(std::find(names.begin(), names.end(), expected) != names.end());
    }
    json stateless = harness.stateless("tools/list")["result"];
    CHECK(stateless["tools"].size() == 8);
    CHECK(stateless["resultType"] == "complete");
    CHECK(stateless["ttlMs"].get<int>() > 0);
    CHECK(stateless["cacheScope"] == "private");
    CHECK(error_code_of(harness.request("tools/list", {{"cursor", "page-2"}})) == -32602);
}

TEST_CASE("tools/call refuses unknown tools and bad arguments with -32602") {
    DispatcherHarness harness;
    harness.initialize();
    json unknown = harness.request("tools/call", {{"name", "rm_rf"}, {"arguments", {}}});
    CHECK(error_code_of(unknown) == -32602);
    CHECK(unknown["error"]["message"].get<std::string>().find("get_trace_stats") !=
          std::string::npos);
    json wrong_type = harness.request(
        "tools/call", {{"name", "get_causal_chains"}, {"arguments", {{"limit", "five"}}}});
    CHECK(error_code_of(wrong_type) == -32602);
    CHECK(wrong_type["error"]["message"].get<std::string>().find("'limit'") != std::string::npos);
    json too_big = harness.request(
        "tools/call", {{"name", "get_causal_chains"}, {"arguments", {{"limit", 100000}}}});
    CHECK(error_code_of(too_big) == -32602);
    json extra =
        harness.request("tools/call", {{"name", "get_check"}, {"arguments", {{"verbose", true}}}});
    CHECK(error_code_of(extra) == -32602);
    json missing = harness.request("tools/call", {{"name", "run_sql"}, {"arguments", {}}});
    CHECK(error_code_of(missing) == -32602);
    CHECK(error_code_of(harness.request("tools/call", {{"arguments", {}}})) == -32602);
    CHECK(error_code_of(harness.request(
              "tools/call", {{"name", "get_check"}, {"arguments", json::array()}})) == -32602);
}

TEST_CASE("a failure inside a tool is a result with isError and an actionable message") {
    DispatcherHarness harness;
    harness.initialize();
    json result = harness.request(
        "tools/call",
        {{"name", "get_trace_stats"}, {"arguments", {{"trace", "no-such-trace"}}}})["result"];
    CHECK(result["isError"] == true);
    CHECK(result["content"][0]["text"].get<std::string>().find("run") != std::string::npos);
    json write = harness.request(
        "tools/call",
        {{"name", "run_sql"}, {"arguments", {{"sql", "DELETE FROM process"}}}})["result"];
    CHECK(write["isError"] == true);
    json bad_pid = harness.request("tools/call", {{"name", "get_per_process_breakdown"},
                                                  {"arguments", {{"pid", 999999}}}})["result"];
    CHECK(bad_pid["isError"] == true);
    json bad_window = harness.request(
        "tools/call", {{"name", "get_timeline"}, {"arguments", {{"window", "soon"}}}})["result"];
    CHECK(bad_window["isError"] == true);
}

TEST_CASE("prompts: list, get with arguments, refusals") {
    DispatcherHarness harness;
    harness.initialize();
    json prompts = harness.request("prompts/list")["result"]["prompts"];
    REQUIRE(prompts.size() == 1);
    CHECK(prompts[0]["name"] == "investigate");
    CHECK(prompts[0]["arguments"].size() == 5);
    json got = harness.request(
        "prompts/get",
        {{"name", "investigate"},
         {"arguments",
          {{"focus", "dataloader"}, {"window", "1s..3s"}, {"pid", "4100"}}}})["result"];
    const std::string text = got["messages"][0]["content"]["text"];
    CHECK(got["messages"][0]["role"] == "user");
    CHECK(text.find("pt_data_worker") != std::string::npos);
    CHECK(text.find(R"("pid":4100)") != std::string::npos);
    CHECK(text.find(R"("window":"1s..3s")") != std::string::npos);
    CHECK(text.find("Never invent numbers") != std::string::npos);
    CHECK(text.find("insufficient") != std::string::npos);
    CHECK(error_code_of(harness.request("prompts/get", {{"name", "nope"}})) == -32602);
    CHECK(error_code_of(harness.request(
              "prompts/get", {{"name", "investigate"}, {"arguments", {{"pid", "abc"}}}})) ==
          -32602);
    CHECK(error_code_of(harness.request(
              "prompts/get", {{"name", "investigate"}, {"arguments", {{"pid", 5}}}})) == -32602);
}

TEST_CASE("compare_traces: a trace against itself changes nothing, in its output schema") {
    DispatcherHarness harness;
    harness.initialize();
    json result = harness.request(
        "tools/call",
        {{"name", "compare_traces"},
         {"arguments", {{"before", "run"}, {"after", "run"}, {"limit", 2}}}})["result"];
    INFO(result.dump(2));
    REQUIRE(result["isError"] == false);
    const json& answer = result["structuredContent"];
    CHECK(causeway::server::schema_violation(
              json(causeway::report::output_schema<causeway::report::ComparisonAnswer>()),
              answer) == "");
    CHECK(answer["headline"].get<std::string>().find("unchanged within noise") !=
          std::string::npos);
    CHECK(answer["headline"].get<std::string>().find("nothing new") != std::string::npos);
    CHECK(answer["throughput_beyond_noise"] == false);
    CHECK(answer["ops"].size() <= 2);
    for (const auto& op : answer["ops"]) {
        CHECK(op["shift"]["beyond_noise"] == false);
    }
    for (const auto& cause : answer["causes"]) {
        CHECK(cause["status"] == "persists");
    }
    CHECK(result["content"][0]["text"].get<std::string>().find("Throughput:") != std::string::npos);
    // Both traces are finished: asked again, the answer is the one kept, not computed anew.
    const auto& cache = harness.traces().answers();
    const std::size_t kept = cache.entries();
    CHECK(kept >= 1);
    json again = harness.request(
        "tools/call",
        {{"name", "compare_traces"},
         {"arguments", {{"before", "run"}, {"after", "run"}, {"limit", 2}}}})["result"];
    CHECK(again == result);
    CHECK(cache.entries() == kept);
    json unknown = harness.request(
        "tools/call", {{"name", "compare_traces"},
                       {"arguments", {{"before", "run"}, {"after", "nope"}}}})["result"];
    CHECK(unknown["isError"] == true);
    CHECK(unknown["content"][0]["text"].get<std::string>().find("after") != std::string::npos);
    CHECK(error_code_of(harness.request(
              "tools/call", {{"name", "compare_traces"}, {"arguments", {{"before", "run"}}}})) ==
          -32602);
}

TEST_CASE("investigate with a baseline starts from compare_traces") {
    DispatcherHarness harness;
    harness.initialize();
    json got = harness.request("prompts/get",
                               {{"name", "investigate"},
                                {"arguments", {{"baseline", "run"}, {"trace", "run"}}}})["result"];
    const std::string text = got["messages"][0]["content"]["text"];
    CHECK(text.find(R"(compare_traces {"after":"run","before":"run"})") != std::string::npos);
    CHECK(text.find("beyond_noise") != std::string::npos);
    CHECK(text.find("get_causal_chains") != std::string::npos);
    CHECK(error_code_of(harness.request(
              "prompts/get",
              {{"name", "investigate"}, {"arguments", {{"baseline", "missing"}}}})) == -32602);
}

TEST_CASE("completion/complete suggests prompt focuses and trace names") {
    DispatcherHarness harness;
    harness.initialize();
    json focus = harness.request("completion/complete",
                                 {{"ref", {{"type", "ref/prompt"}, {"name", "investigate"}}},
                                  {"argument", {{"name", "focus"}, {"value", "da"}}}})["result"];
    CHECK(focus["completion"]["values"] == json::array({"dataloader"}));
    json trace = harness.request(
        "completion/complete",
        {{"ref", {{"type", "ref/resource"}, {"uri", "causeway://traces/{trace}/summary"}}},
         {"argument", {{"name", "trace"}, {"value", ""}}}})["result"];
    CHECK(trace["completion"]["values"] == json::array({"run"}));
    CHECK(error_code_of(harness.request("completion/complete",
                                        {{"ref", {{"type", "ref/prompt"}, {"name", "other"}}},
                                         {"argument", {{"name", "x"}, {"value", ""}}}})) == -32602);
    CHECK(error_code_of(harness.request("completion/complete", json::object())) == -32602);
}

TEST_CASE("resources: schema, served traces and per-trace summary, unknown URI is -32002") {
    DispatcherHarness harness;
    harness.initialize();
    json resources = harness.request("resources/list")["result"]["resources"];
    REQUIRE(resources.size() == 3);
    CHECK(resources[0]["uri"] == "causeway://schema/trace.sql");
    CHECK(resources[1]["uri"] == "causeway://traces");
    CHECK(resources[2]["uri"] == "causeway://traces/run/summary");
    json served =
        json::parse(harness
                        .request("resources/read",
                                 {{"uri", "causeway://traces"}})["result"]["contents"][0]["text"]
                        .get<std::string>());
    CHECK(served["traces"][0]["name"] == "run");
    CHECK(served["skipped"].empty());
    json schema = harness.request("resources/read", {{"uri", "causeway://schema/trace.sql"}});
    CHECK(schema["result"]["contents"][0]["text"].get<std::string>().find(
              "CREATE TABLE cuda_call") != std::string::npos);
    json summary = harness.request("resources/read", {{"uri", "causeway://traces/run/summary"}});
    json parsed = json::parse(summary["result"]["contents"][0]["text"].get<std::string>());
    CHECK(parsed.is_object());
    json templates = harness.request("resources/templates/list")["result"]["resourceTemplates"];
    CHECK(templates[0]["uriTemplate"] == "causeway://traces/{trace}/summary");
    json missing = harness.request("resources/read", {{"uri", "causeway://traces/x/summary"}});
    CHECK(error_code_of(missing) == -32002);
    CHECK(error_code_of(harness.request("resources/read", json::object())) == -32602);
}

TEST_CASE("logging/setLevel accepts the RFC 5424 names only") {
    DispatcherHarness harness;
    harness.initialize();
    CHECK(harness.request("logging/setLevel", {{"level", "debug"}})["result"] == json::object());
    CHECK(error_code_of(harness.request("logging/setLevel", {{"level", "loud"}})) == -32602);
}

TEST_CASE("JSON-RPC framing errors carry the right codes") {
    DispatcherHarness harness;
    CHECK(error_code_of(harness.request("no/such/method")) == -32601);
    CHECK(error_code_of(harness.send(json::array({1, 2}))[0]) == -32600);
    CHECK(error_code_of(harness.send("text")) == -32600);
    CHECK(error_code_of(harness.send({{"id", 1}, {"method", "ping"}})) == -32600);
    CHECK(error_code_of(harness.send({{"jsonrpc", "2.0"}, {"id", nullptr}, {"method", "ping"}})) ==
          -32600);
    CHECK(error_code_of(harness.send({{"jsonrpc", "2.0"}, {"id", 1.5}, {"method", "ping"}})) ==
          -32600);
    CHECK(error_code_of(harness.send({{"jsonrpc", "2.0"}, {"id", 1}, {"method", 7}})) == -32600);
    CHECK(error_code_of(harness.send(
              {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "ping"}, {"params", {1, 2}}})) == -32602);
    CHECK(error_code_of(harness.send(json::array())) == -32600);
    json params_shape = harness.request("completion/complete",
                                        {{"ref", {{"type", 5}}}, {"argument", {{"name", "x"}}}});
    CHECK(error_code_of(params_shape) == -32602);
}

TEST_CASE("notifications and client responses get no response, batches answer requests only") {
    DispatcherHarness harness;
    CHECK(harness.send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}).is_null());
    CHECK(harness.send({{"jsonrpc", "2.0"}, {"method", "notifications/whatever"}}).is_null());
    CHECK(harness.send({{"jsonrpc", "2.0"}, {"id", 9}, {"result", json::object()}}).is_null());
    json batch =
        harness.send(json::array({{{"jsonrpc", "2.0"}, {"id", "a"}, {"method", "ping"}},
                                  {{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}},
                                  {{"jsonrpc", "2.0"}, {"id", "b"}, {"method", "nope"}}}));
    REQUIRE(batch.size() == 2);
    CHECK(batch[0]["id"] == "a");
    CHECK(error_code_of(batch[1]) == -32601);
}

TEST_CASE("text bodies: malformed JSON and deep nesting are parse errors, not crashes") {
    DispatcherHarness harness;
    causeway::server::Session session;
    const causeway::server::Exchange exchange{session, {}, std::nullopt};
    auto malformed =
        harness.dispatcher().handle_text("{\"jsonrpc\": \"2.0\", \"id\": 1,", exchange);
    REQUIRE(malformed);
    CHECK(error_code_of(*malformed) == -32700);
    CHECK_FALSE(malformed->contains("id"));  // unknown: left out, as MCP says
    std::string deep(100000, '[');
    auto nested = harness.dispatcher().handle_text(deep, exchange);
    REQUIRE(nested);
    CHECK(error_code_of(*nested) == -32700);
    CHECK((*nested)["error"]["message"].get<std::string>().find("nested") != std::string::npos);
    auto invalid_utf8 = harness.dispatcher().handle_text(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\xfe\"}", exchange);
    REQUIRE(invalid_utf8);
    CHECK(error_code_of(*invalid_utf8) == -32700);
}
