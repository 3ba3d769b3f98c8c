// What an attacker or a confused model sends through the dispatcher: windows beyond int64 (one
// crashed get_timeline), its own control and bidi characters to be echoed back in errors,
// answers too large to send that must not be cached.
#include <catch2/catch.hpp>

#include <string>

#include "server/rpc/sanitize.hpp"
#include "tests/server/rpc/dispatcher_harness.hpp"

using causeway::testing::DispatcherHarness;
using nlohmann::json;

namespace {

json call_tool(DispatcherHarness& harness, const std::string& tool, json arguments) {
    return harness.request("tools/call", {{"name", tool}, {"arguments", std::move(arguments)}});
}

std::string text_of(const json& response) {
    return response["result"]["content"][0]["text"].get<std::string>();
}

// Every {"start_ns", "end_ns"} range in an answer, wherever it is.
void check_ranges(const json& tree) {
    if (tree.is_object()) {
        if (tree.contains("start_ns") && tree.contains("end_ns") && tree["start_ns"].is_number() &&
            tree["end_ns"].is_number()) {
            CHECK(tree["start_ns"].get<std::int64_t>() >= 0);
            CHECK(tree["end_ns"].get<std::int64_t>() >= tree["start_ns"].get<std::int64_t>());
        }
    }
    if (tree.is_structured()) {
        for (const auto& child : tree) {
            check_ranges(child);
        }
    }
}

// Whether every string of `tree` is already clean: sanitising it again changes nothing.
bool all_strings_clean(const json& tree) {
    if (tree.is_string()) {
        const auto& text = tree.get_ref<const std::string&>();
        return causeway::server::sanitize_untrusted(text, text.size() + 8) == text;
    }
    if (tree.is_structured()) {
        for (const auto& child : tree) {
            if (!all_strings_clean(child)) {
                return false;
            }
        }
    }
    return true;
}

const char* const kWindowTools[] = {"get_trace_stats", "get_causal_chains",
                                    "get_per_process_breakdown", "get_timeline", "get_stacks"};

}  // namespace

TEST_CASE("a window beyond int64 is a tool error naming the window, for every tool taking one") {
    DispatcherHarness harness;
    harness.initialize();
    for (const char* tool : kWindowTools) {
        for (const char* window : {"1e10s..", "1e308s..", "18446744073709551615ns..", "..1e400s",
                                   "nan..", "-5s..", "2s..1s"}) {
            INFO(tool << " window " << window);
            json response = call_tool(harness, tool, {{"window", window}});
            REQUIRE(response.contains("result"));
            CHECK(response["result"]["isError"] == true);
            CHECK(text_of(response).find("window") != std::string::npos);
        }
    }
    // The prompt checks it too, before telling a model to use it.
    json prompt = harness.request(
        "prompts/get", {{"name", "investigate"}, {"arguments", {{"window", "1e10s.."}}}});
    CHECK(prompt["error"]["message"].get<std::string>().find("window") != std::string::npos);
}

TEST_CASE("answers to windows inside the range never carry a negative range") {
    DispatcherHarness harness;
    harness.initialize();
    for (const char* tool : kWindowTools) {
        for (const char* window : {"0s..", "1s..3s", "..1e9s", "5.9s.."}) {
            INFO(tool << " window " << window);
            json response = call_tool(harness, tool, {{"window", window}});
            REQUIRE(response.contains("result"));
            CHECK(response["result"]["isError"] == false);
            check_ranges(response["result"]["structuredContent"]);
        }
    }
}

TEST_CASE("error texts never echo the client's control or bidi characters") {
    DispatcherHarness harness;
    harness.initialize();
    const std::string hostile = "evil\u202e\u2066\x1b[31m\x07\r\nname";
    const json answers = json::array({
        harness.request("tools/call", {{"name", hostile}}),
        call_tool(harness, "get_timeline", {{"window", hostile}}),
        call_tool(harness, "get_trace_stats", {{"op", hostile}}),
        call_tool(harness, "get_trace_stats", {{"trace", hostile}}),
        call_tool(harness, "run_sql", {{"sql", "SELECT * FROM \"" + hostile + "\""}}),
        harness.request("resources/read", {{"uri", hostile}}),
        harness.request("tools/list", {{"cursor", hostile}}),
        harness.request("prompts/get",
                        {{"name", "investigate"}, {"arguments", {{"pid", hostile}}}}),
        harness.request(hostile),
    });
    for (const auto& answer : answers) {
        INFO(answer.dump());
        CHECK(answer.dump().find("evil") != std::string::npos);  // the text is echoed ...
        CHECK(all_strings_clean(answer));                        // ... without its controls
    }
}

TEST_CASE("an answer refused as too large is never cached, the cache is bounded by bytes") {
    DispatcherHarness harness;
    harness.initialize();
    const auto& cache = harness.traces().answers();
    std::string columns;
    for (int c = 0; c < 120; ++c) {
        columns += (c == 0 ? "" : ", ") + std::string("printf('%.*c', 1000, 'x') AS c") +
                   std::to_string(c);
    }
    for (int distinct = 0; distinct < 5; ++distinct) {
        json response = call_tool(harness, "run_sql",
                                  {{"sql", "SELECT " + columns + ", " + std::to_string(distinct)}});
        CHECK(response["result"]["isError"] == true);
        CHECK(text_of(response).find("too large") != std::string::npos);
    }
    CHECK(cache.entries() == 0);
    CHECK(cache.bytes() == 0);
    json small = call_tool(harness, "run_sql", {{"sql", "SELECT count(*) FROM process"}});
    CHECK(small["result"]["isError"] == false);
    CHECK(cache.entries() == 1);
    CHECK(cache.bytes() > 0);
    CHECK(cache.bytes() <= causeway::server::TraceSet::kAnswerCacheBytes);
}
