// Progress, cancellation and log notifications of a running request, with the test tool "steps"
// (tests/server/tools/steps_tool.hpp).
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <future>
#include <thread>

#include "tests/server/rpc/dispatcher_harness.hpp"
#include "tests/server/tools/steps_tool.hpp"

using causeway::testing::DispatcherHarness;
using nlohmann::json;

namespace {

std::vector<json> with_method(const std::vector<json>& notes, const std::string& method) {
    std::vector<json> found;
    for (const auto& note : notes) {
        if (note["method"] == method) {
            found.push_back(note);
        }
    }
    return found;
}

}  // namespace

TEST_CASE("progress notifications follow the request's progressToken") {
    std::atomic<bool> started{false};
    DispatcherHarness harness(causeway::testing::steps_catalog(started));
    json response = harness.request(
        "tools/call",
        {{"name", "steps"}, {"arguments", {{"steps", 3}}}, {"_meta", {{"progressToken", "tok"}}}});
    CHECK(response["result"]["structuredContent"]["steps"] == 3);
    auto progress = with_method(harness.notifications(), "notifications/progress");
    REQUIRE(progress.size() == 3);
    CHECK(progress[0]["params"]["progressToken"] == "tok");
    CHECK(progress[2]["params"]["progress"] == 3);
    CHECK(progress[2]["params"]["total"] == 3);

    DispatcherHarness quiet(causeway::testing::steps_catalog(started));
    quiet.request("tools/call", {{"name", "steps"}, {"arguments", json::object()}});
    CHECK(with_method(quiet.notifications(), "notifications/progress").empty());
}

TEST_CASE("log notifications pass the level set with logging/setLevel or the request's _meta") {
    std::atomic<bool> started{false};
    DispatcherHarness harness(causeway::testing::steps_catalog(started));
    harness.request("logging/setLevel", {{"level", "warning"}});
    harness.request("tools/call", {{"name", "steps"}, {"arguments", json::object()}});
    CHECK(with_method(harness.notifications(), "notifications/message").empty());
    harness.request("logging/setLevel", {{"level", "debug"}});
    harness.request("tools/call", {{"name", "steps"}, {"arguments", json::object()}});
    auto messages = with_method(harness.notifications(), "notifications/message");
    REQUIRE(messages.size() == 2);
    CHECK(messages[0]["params"]["level"] == "info");
    CHECK(messages[0]["params"]["data"] == "steps done");

    DispatcherHarness stateless(causeway::testing::steps_catalog(started));
    stateless.stateless("tools/call", {{"name", "steps"},
                                       {"arguments", json::object()},
                                       {"_meta", {{"io.modelcontextprotocol/logLevel", "info"}}}});
    CHECK(with_method(stateless.notifications(), "notifications/message").size() == 1);
}

TEST_CASE("notifications/cancelled of its own session stops a running request, silently") {
    std::atomic<bool> started{false};
    DispatcherHarness harness(causeway::testing::steps_catalog(started));
    auto pending = std::async(std::launch::async, [&] {
        return harness.request("tools/call",
                               {{"name", "steps"}, {"arguments", {{"wait_for_cancel", true}}}},
                               "long-1");
    });
    while (!started) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    // From another session, the same request id names nothing of that session's.
    causeway::server::Session other;
    harness.dispatcher().handle({{"jsonrpc", "2.0"},
                                 {"method", "notifications/cancelled"},
                                 {"params", {{"requestId", "long-1"}}}},
                                causeway::server::Exchange{other, {}, std::nullopt});
    CHECK(pending.wait_for(std::chrono::milliseconds(200)) == std::future_status::timeout);
    const auto sent = std::chrono::steady_clock::now();
    harness.send({{"jsonrpc", "2.0"},
                  {"method", "notifications/cancelled"},
                  {"params", {{"requestId", "long-1"}, {"reason", "user pressed stop"}}}});
    json response = pending.get();
    CHECK(response.is_null());
    CHECK(std::chrono::steady_clock::now() - sent < std::chrono::seconds(5));
    // A cancel for a request that is not running changes nothing.
    harness.send({{"jsonrpc", "2.0"},
                  {"method", "notifications/cancelled"},
                  {"params", {{"requestId", "long-1"}}}});
    CHECK(harness.request("ping", json::object(), "long-1")["result"] == json::object());
}
