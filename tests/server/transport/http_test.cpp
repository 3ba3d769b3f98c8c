// The Streamable HTTP transport on 127.0.0.1: JSON and SSE answers, Host/Origin validation,
// bearer token, size limit, wrong methods and media types, and a bounded flood of concurrent
// clients. Uses the "steps" test tool (tests/server/tools/steps_tool.hpp) so progress can be
// streamed.
#include <catch2/catch.hpp>

#include <httplib.h>

#include <atomic>
#include <future>
#include <thread>

#include "tests/server/transport/http_test_server.hpp"

using nlohmann::json;

namespace {

using causeway::testing::RunningServer;

const json kPing{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "ping"}};

}  // namespace

TEST_CASE("POST /mcp answers JSON, notifications get 202, health answers") {
    RunningServer server;
    auto init = server.post({{"jsonrpc", "2.0"},
                             {"id", 1},
                             {"method", "initialize"},
                             {"params", {{"protocolVersion", "2025-06-18"}}}});
    REQUIRE(init);
    CHECK(init->status == 200);
    CHECK(init->get_header_value("Content-Type") == "application/json");
    CHECK(json::parse(init->body)["result"]["protocolVersion"] == "2025-06-18");
    auto note = server.post({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
    CHECK(note->status == 202);
    CHECK(note->body.empty());
    auto health = server.client().Get("/health");
    CHECK(health->status == 200);
    CHECK(json::parse(health->body)["status"] == "ok");
}

TEST_CASE("initialize mints a session, its id is honoured, ended by DELETE, unknown ids are 404") {
    RunningServer server;
    auto init = server.post({{"jsonrpc", "2.0"},
                             {"id", 1},
                             {"method", "initialize"},
                             {"params", {{"protocolVersion", "2025-11-25"}}}});
    const std::string id = init->get_header_value("Mcp-Session-Id");
    REQUIRE(id.size() == 32);
    CHECK(server.post(kPing, {{"Mcp-Session-Id", id}})->status == 200);
    auto other = server.post({{"jsonrpc", "2.0"},
                              {"id", 1},
                              {"method", "initialize"},
                              {"params", {{"protocolVersion", "2025-11-25"}}}});
    CHECK(other->get_header_value("Mcp-Session-Id") != id);
    CHECK(server.client().Delete("/mcp", {{"Mcp-Session-Id", id}})->status == 204);
    auto ended = server.post(kPing, {{"Mcp-Session-Id", id}});
    CHECK(ended->status == 404);
    CHECK(json::parse(ended->body)["error"]["message"].get<std::string>().find("initialize") !=
          std::string::npos);
    CHECK(server.client().Delete("/mcp", {{"Mcp-Session-Id", id}})->status == 404);
    CHECK(server.post(kPing)->status == 200);  // no session: served without one
}

TEST_CASE("a request asking for progress is answered as an SSE stream") {
    RunningServer server;
    auto res = server.post(
        {{"jsonrpc", "2.0"},
         {"id", 7},
         {"method", "tools/call"},
         {"params",
          {{"name", "steps"}, {"arguments", {{"steps", 2}}}, {"_meta", {{"progressToken", 99}}}}}});
    REQUIRE(res);
    CHECK(res->status == 200);
    CHECK(res->get_header_value("Content-Type").find("text/event-stream") == 0);
    std::vector<json> events;
    for (std::size_t at = res->body.find("data: "); at != std::string::npos;
         at = res->body.find("data: ", at + 1)) {
        events.push_back(json::parse(res->body.substr(at + 6, res->body.find('\n', at) - at - 6)));
    }
    REQUIRE(events.size() == 4);  // two progress, one log (info), the response
    CHECK(events[0]["method"] == "notifications/progress");
    CHECK(events[0]["params"]["progressToken"] == 99);
    CHECK(events[3]["id"] == 7);
    CHECK(events[3]["result"]["structuredContent"]["steps"] == 2);
    auto sse_only = server.post(kPing, {}, "text/event-stream");
    CHECK(sse_only->get_header_value("Content-Type").find("text/event-stream") == 0);
    CHECK(sse_only->body.find("\"result\":{}") != std::string::npos);
}

TEST_CASE("an HTTP/1.0 client gets its stream unchunked, ended by the close") {
    RunningServer server;
    const std::string body =
        json{
            {"jsonrpc", "2.0"},
            {"id", 7},
            {"method", "tools/call"},
            {"params",
             {{"name", "steps"}, {"arguments", {{"steps", 2}}}, {"_meta", {{"progressToken", 1}}}}}}
            .dump();
    causeway::testing::RawConnection connection(server.port());
    // It asks to keep the connection: a stream without chunks can only end with it.
    REQUIRE(
        connection.send("POST /mcp HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n"
                        "Content-Type: application/json\r\n"
                        "Accept: application/json, text/event-stream\r\nContent-Length: " +
                        std::to_string(body.size()) + "\r\n\r\n" + body));
    const std::string answer = connection.read_to_close();
    INFO(answer);
    const std::size_t head_end = answer.find("\r\n\r\n");
    REQUIRE(head_end != std::string::npos);
    const std::string head = answer.substr(0, head_end);
    CHECK(head.find("text/event-stream") != std::string::npos);
    CHECK(head.find("Transfer-Encoding") == std::string::npos);
    CHECK(head.find("Connection: close") != std::string::npos);
    // The events themselves, with no chunk sizes between them: the response is the last.
    const std::string events = answer.substr(head_end + 4);
    CHECK(events.rfind("event: message\n", 0) == 0);
    CHECK(events.find("\r\n") == std::string::npos);
    CHECK(events.find(R"({"id":7,"jsonrpc":"2.0","result")") != std::string::npos);
}

TEST_CASE("Connection is a list of tokens: close among them closes") {
    RunningServer server;
    causeway::testing::RawConnection connection(server.port());
    const std::string body = kPing.dump();
    REQUIRE(
        connection.send("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: TE, close\r\n"
                        "TE: trailers\r\nContent-Type: application/json\r\n"
                        "Accept: application/json\r\nContent-Length: " +
                        std::to_string(body.size()) + "\r\n\r\n" + body));
    const std::string answer = connection.read_response();
    CHECK(answer.find("Connection: close") != std::string::npos);
    CHECK(connection.closed_by_server());
}

TEST_CASE("a foreign Host or Origin is refused with 403 (DNS rebinding)") {
    RunningServer server;
    const std::string port = std::to_string(server.port());
    CHECK(server.post(kPing, {{"Host", "evil.example.com"}})->status == 403);
    CHECK(server.post(kPing, {{"Host", "evil.example.com:" + port}})->status == 403);
    CHECK(server.post(kPing, {{"Host", "localhost:1"}})->status == 403);
    CHECK(server.post(kPing, {{"Origin", "http://evil.example.com"}})->status == 403);
    CHECK(server.post(kPing, {{"Origin", "null"}})->status == 403);
    CHECK(
        server.post(kPing, {{"Host", "localhost:" + port}, {"Origin", "http://localhost:" + port}})
            ->status == 200);
    CHECK(server.post(kPing, {{"Origin", "http://127.0.0.1:" + port}})->status == 200);
    auto refused = server.client().Get("/health", {{"Host", "attacker.test"}});
    CHECK(refused->status == 403);
}

TEST_CASE("with a bearer token, requests without the right one get 401") {
    causeway::server::HttpOptions options;
    options.bearer_token = "s3cret-token";
    RunningServer server(options);
    auto none = server.post(kPing);
    CHECK(none->status == 401);
    CHECK(none->get_header_value("WWW-Authenticate").find("Bearer") == 0);
    CHECK(server.post(kPing, {{"Authorization", "Bearer wrong"}})->status == 401);
    CHECK(server.post(kPing, {{"Authorization", "Bearer s3cret-token"}})->status == 200);
    CHECK(server.client().Get("/health")->status == 200);
}

TEST_CASE("wrong methods, media types, versions, sizes and bodies get clear HTTP errors") {
    causeway::server::HttpOptions options;
    options.max_body_bytes = 64 * 1024;
    RunningServer server(options);
    auto get = server.client().Get("/mcp");
    CHECK(get->status == 405);
    CHECK(get->get_header_value("Allow") == "POST, DELETE");
    CHECK(server.client().Delete("/mcp")->status == 400);
    CHECK(server.client().Get("/nowhere")->status == 404);
    auto text = server.client().Post("/mcp", kPing.dump(), "text/plain");
    CHECK(text->status == 415);
    CHECK(server.post(kPing, {}, "text/html")->status == 406);
    auto version = server.post(kPing, {{"MCP-Protocol-Version", "1999-01-01"}});
    CHECK(version->status == 400);
    CHECK(json::parse(version->body)["error"]["data"]["supported"].size() == 5);
    CHECK(server.post(kPing, {{"MCP-Protocol-Version", "2025-06-18"}})->status == 200);
    auto big = server.client().Post("/mcp", std::string(100 * 1024, ' '), "application/json");
    CHECK(big->status == 413);
    auto malformed = server.client().Post("/mcp", "{\"jsonrpc\":", "application/json");
    CHECK(malformed->status == 400);
    CHECK(json::parse(malformed->body)["error"]["code"] == -32700);
    auto deep = server.client().Post("/mcp", std::string(20000, '['), "application/json");
    CHECK(deep->status == 400);
    auto unknown = server.post({{"jsonrpc", "2.0"}, {"id", 3}, {"method", "x/y"}});
    CHECK(json::parse(unknown->body)["error"]["code"] == -32601);
    // The server is still healthy after all of it.
    CHECK(server.post(kPing)->status == 200);
}

TEST_CASE("a flood of concurrent clients is served completely") {
    RunningServer server;
    constexpr int kClients = 16;
    constexpr int kRequestsEach = 25;
    std::vector<std::future<int>> clients;
    for (int c = 0; c < kClients; ++c) {
        clients.push_back(std::async(std::launch::async, [&server, c] {
            httplib::Client client("127.0.0.1", server.port());
            client.set_read_timeout(20, 0);
            client.set_keep_alive(true);  // as MCP clients do: one connection, many requests
            int answered = 0;
            for (int r = 0; r < kRequestsEach; ++r) {
                const int id = c * 1000 + r;
                json request{{"jsonrpc", "2.0"},
                             {"id", id},
                             {"method", "tools/call"},
                             {"params", {{"name", "steps"}, {"arguments", {{"steps", 1}}}}}};
                auto res = client.Post("/mcp", {{"Accept", "application/json"}}, request.dump(),
                                       "application/json");
                if (res && res->status == 200 && json::parse(res->body)["id"] == id) {
                    ++answered;
                }
            }
            return answered;
        }));
    }
    int answered = 0;
    for (auto& client : clients) {
        answered += client.get();
    }
    CHECK(answered == kClients * kRequestsEach);
}
