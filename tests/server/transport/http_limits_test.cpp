// What the HTTP transport does with clients that are slow, hostile or simply many: a request
// must arrive whole within the request deadline (408), chunked bodies count against the body
// limit (413 before the body is read), connections are bounded (an idle keep-alive connection
// makes room, else 503), /health answers whatever the other clients do, keep-alive lasts 1000
// requests, and a message holding no request is answered as stdio answers it.
#include <catch2/catch.hpp>

#include <cstdio>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "tests/server/transport/http_test_server.hpp"
#include "tests/server/transport/stdio_run.hpp"

using causeway::testing::ping_request;
using causeway::testing::RawConnection;
using causeway::testing::RunningServer;
using nlohmann::json;

namespace {

std::string status_line(const std::string& response) {
    return response.substr(0, response.find("\r\n"));
}

std::string body_of(const std::string& response) {
    return response.substr(response.find("\r\n\r\n") + 4);
}

const std::string kPostHead =
    "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    "Accept: application/json\r\n";

// Sends `head` and then one byte of padding header every `pause` until the server answers or
// closes; returns the answer.
std::string trickle_until_answered(int port, std::chrono::milliseconds pause) {
    RawConnection connection(port);
    REQUIRE(connection.send(kPostHead));
    auto answer = std::async(std::launch::async, [&] { return connection.read_response(); });
    const std::string padding = "X-Padding: " + std::string(8000, 'a');
    for (char byte : padding) {
        if (answer.wait_for(pause) == std::future_status::ready ||
            !connection.send(std::string(1, byte))) {
            break;
        }
    }
    return answer.get();
}

// A call of the steps tool that keeps its worker busy for `busy_ms`. (Nothing outside its own
// stateless request can cancel it: a cancellation reaches only requests of its own session.)
std::string steps_request(int id, int busy_ms) {
    const std::string body =
        json{{"jsonrpc", "2.0"},
             {"id", id},
             {"method", "tools/call"},
             {"params",
              {{"name", "steps"},
               {"arguments", {{"steps", 1}, {"wait_for_cancel", true}, {"wait_ms", busy_ms}}}}}}
            .dump();
    return kPostHead + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

// A call of the steps tool that streams `steps` progress notifications (about 150 bytes each) as
// server-sent events: an answer that grows for as long as the tool runs.
std::string streaming_request(int id, int steps) {
    const std::string body = json{{"jsonrpc", "2.0"},
                                  {"id", id},
                                  {"method", "tools/call"},
                                  {"params",
                                   {{"name", "steps"},
                                    {"arguments", {{"steps", steps}}},
                                    {"_meta", {{"progressToken", id}}}}}}
                                 .dump();
    return "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
           "Accept: application/json, text/event-stream\r\nContent-Length: " +
           std::to_string(body.size()) + "\r\n\r\n" + body;
}

// A client that asks for a streamed answer and does not read it, with a 4 KiB receive buffer:
// the server holds what the socket cannot take.
std::unique_ptr<RawConnection> slow_reader(int port, int id, int steps) {
    auto connection = std::make_unique<RawConnection>(port, 4096);
    REQUIRE(connection->send(streaming_request(id, steps)));
    return connection;
}

}  // namespace

TEST_CASE("a request trickling in is cut off at the whole-request deadline (408)") {
    causeway::server::HttpOptions options;
    options.request_timeout = std::chrono::milliseconds(400);
    RunningServer server(options);
    // A byte every 20 ms: each read succeeds, but the request never completes.
    const std::string answer = trickle_until_answered(server.port(), std::chrono::milliseconds(20));
    CHECK(status_line(answer) == "HTTP/1.1 408 Request Timeout");
    CHECK(answer.find("Connection: close") != std::string::npos);
    CHECK(json::parse(body_of(answer))["error"]["message"].get<std::string>().find("400 ms") !=
          std::string::npos);
}

TEST_CASE("/health answers while every worker is busy and ten clients trickle bytes") {
    causeway::server::HttpOptions options;
    options.request_timeout = std::chrono::minutes(5);  // the trickling clients are not cut off
    RunningServer server(options);
    std::vector<std::unique_ptr<RawConnection>> busy;
    const auto busy_until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    for (int id = 100; id < 108; ++id) {  // the eight workers are busy for 5 s
        busy.push_back(std::make_unique<RawConnection>(server.port()));
        REQUIRE(busy.back()->send(steps_request(id, 5000)));
    }
    std::atomic<bool> done{false};
    std::vector<std::thread> tricklers;
    for (int i = 0; i < 10; ++i) {
        tricklers.emplace_back([&server, &done] {
            RawConnection connection(server.port());
            connection.send(kPostHead + "X-Padding: ");
            while (!done && connection.send("a")) {
                std::this_thread::sleep_for(std::chrono::milliseconds(100));
            }
        });
    }
    httplib::Client health("127.0.0.1", server.port());
    health.set_read_timeout(60, 0);
    auto answer = health.Get("/health");
    // Answered by the loop while the workers were still busy, not after them.
    CHECK(std::chrono::steady_clock::now() < busy_until);
    done = true;
    for (auto& thread : tricklers) {
        thread.join();
    }
    REQUIRE(answer);
    CHECK(answer->status == 200);
}

TEST_CASE("a chunked body counts against the body limit: 413 before the body is read") {
    causeway::server::HttpOptions options;
    options.max_body_bytes = 64 * 1024;
    RunningServer server(options);
    const std::string chunked_head = kPostHead + "Transfer-Encoding: chunked\r\n\r\n";
    {
        // A chunked ping in three chunks is read and answered.
        RawConnection connection(server.port());
        const std::string ping = R"({"jsonrpc":"2.0","id":5,"method":"ping"})";
        std::string body;
        for (std::size_t at = 0; at < ping.size(); at += 16) {
            const std::string piece = ping.substr(at, 16);
            char size[16];
            std::snprintf(size, sizeof size, "%zx", piece.size());
            body += std::string(size) + ";ext=1\r\n" + piece + "\r\n";
        }
        REQUIRE(connection.send(chunked_head + body + "0\r\nX-Trailer: 1\r\n\r\n"));
        const std::string answer = connection.read_response();
        CHECK(status_line(answer) == "HTTP/1.1 200 OK");
        CHECK(json::parse(body_of(answer))["id"] == 5);
    }
    {
        // 80 KiB in 1 KiB chunks: refused at the chunk that passes 64 KiB.
        RawConnection connection(server.port());
        std::string body;
        for (int i = 0; i < 80; ++i) {
            body += "400\r\n" + std::string(1024, ' ') + "\r\n";
        }
        connection.send(chunked_head + body + "0\r\n\r\n");
        CHECK(status_line(connection.read_response()) == "HTTP/1.1 413 Payload Too Large");
    }
    {
        // One chunk announced at 400 MiB: refused from its size line, nothing of it read.
        RawConnection connection(server.port());
        REQUIRE(connection.send(chunked_head + "19000000\r\n"));
        const std::string answer = connection.read_response();
        CHECK(status_line(answer) == "HTTP/1.1 413 Payload Too Large");
        CHECK(answer.find("Connection: close") != std::string::npos);
        CHECK(connection.closed_by_server());
    }
    CHECK(server.post({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "ping"}})->status == 200);
}

TEST_CASE("connections are bounded: an idle one makes room, else the newcomer gets 503") {
    causeway::server::HttpOptions options;
    options.max_connections = 1;
    RunningServer server(options);
    {
        RawConnection idle(server.port());
        REQUIRE(idle.send(ping_request(1)));
        REQUIRE(status_line(idle.read_response()) == "HTTP/1.1 200 OK");
        RawConnection newcomer(server.port());  // the idle keep-alive connection gives way
        REQUIRE(newcomer.send(ping_request(2)));
        CHECK(status_line(newcomer.read_response()) == "HTTP/1.1 200 OK");
        CHECK(idle.closed_by_server());
    }
    RawConnection working(server.port());
    REQUIRE(working.send(steps_request(9, 1000)));
    while (!server.tool_started()) {
        std::this_thread::yield();
    }
    RawConnection refused(server.port());
    CHECK(status_line(refused.read_response()) == "HTTP/1.1 503 Service Unavailable");
    CHECK(status_line(working.read_response()) == "HTTP/1.1 200 OK");
}

TEST_CASE("keep-alive serves 1000 requests on one connection, pipelined ones in order") {
    RunningServer server;
    RawConnection connection(server.port());
    REQUIRE(connection.send(ping_request(1) + ping_request(2)));  // two in one write
    CHECK(json::parse(body_of(connection.read_response()))["id"] == 1);
    CHECK(json::parse(body_of(connection.read_response()))["id"] == 2);
    for (int id = 3; id <= 1000; ++id) {
        REQUIRE(connection.send(ping_request(id)));
        const std::string answer = connection.read_response();
        REQUIRE(json::parse(body_of(answer))["id"] == id);
        CHECK((answer.find("Connection: close") != std::string::npos) == (id == 1000));
    }
    CHECK(connection.closed_by_server());
}

TEST_CASE("Expect: 100-continue gets its 100 before the body is sent") {
    RunningServer server;
    RawConnection connection(server.port());
    const std::string body = R"({"jsonrpc":"2.0","id":3,"method":"ping"})";
    REQUIRE(connection.send(kPostHead + "Expect: 100-continue\r\nContent-Length: " +
                            std::to_string(body.size()) + "\r\n\r\n"));
    CHECK(connection.read_response() == "HTTP/1.1 100 Continue\r\n\r\n");
    REQUIRE(connection.send(body));
    CHECK(json::parse(body_of(connection.read_response()))["id"] == 3);
}

TEST_CASE("a message holding no request gets 400 and the JSON-RPC errors stdio answers") {
    RunningServer server;
    const std::vector<std::string> bodies = {"[]", "null", "[1,2]", "7", R"({"id":1})"};
    causeway::testing::DispatcherHarness harness;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        INFO(bodies[i]);
        auto answer = server.client().Post("/mcp", {{"Accept", "application/json"}}, bodies[i],
                                           "application/json");
        REQUIRE(answer);
        CHECK(answer->status == 400);
        const std::string stdio =
            causeway::testing::run_stdio(harness.dispatcher(), bodies[i] + "\n");
        CHECK(json::parse(answer->body) == json::parse(stdio));
    }
}

TEST_CASE("a client reading its answer too slowly is cut off at the whole-response deadline") {
    causeway::server::HttpOptions options;
    options.write_timeout = std::chrono::milliseconds(600);
    RunningServer server(options);
    auto reader = slow_reader(server.port(), 1, 20000);
    // 1 KiB every 50 ms: every read takes some bytes, none empties what waits for it. Before,
    // each partial read restarted the deadline and this went on for as long as the client liked.
    const auto started = std::chrono::steady_clock::now();
    bool open = true;
    while (open && std::chrono::steady_clock::now() - started < std::chrono::seconds(20)) {
        open = reader->read_some(1024);
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    CHECK_FALSE(open);
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(10));
}

TEST_CASE("a client that lets more than its cap of answer bytes pile up is cut off at once") {
    causeway::server::HttpOptions options;
    options.max_output_bytes_per_connection = 256 * 1024;  // the stream is about 3 MB
    RunningServer server(options);
    const auto started = std::chrono::steady_clock::now();
    auto reader = slow_reader(server.port(), 1, 20000);
    CHECK(reader->closed_by_server());
    // Long before the 30 s write deadline.
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(10));
    CHECK(server.post({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "ping"}})->status == 200);
}

TEST_CASE("past the server's cap of unsent answer bytes new requests get 503 and /health answers") {
    causeway::server::HttpOptions options;
    options.max_buffered_bytes = 256 * 1024;
    RunningServer server(options);
    auto reader = slow_reader(server.port(), 1, 5000);  // about 700 KB it cannot take
    RawConnection newcomer(server.port());
    std::string answer;
    for (int attempt = 0; attempt < 100; ++attempt) {  // until the stream has piled up
        RawConnection client(server.port());
        REQUIRE(client.send(ping_request(attempt + 10, false)));
        answer = client.read_response();
        if (status_line(answer) == "HTTP/1.1 503 Service Unavailable") {
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    CHECK(status_line(answer) == "HTTP/1.1 503 Service Unavailable");
    CHECK(body_of(answer).find("not read yet") != std::string::npos);
    httplib::Client health("127.0.0.1", server.port());
    auto healthy = health.Get("/health");
    REQUIRE(healthy);
    CHECK(healthy->status == 200);
}

TEST_CASE("130 slow readers leave room for /health and a new client: the most unsent gives way") {
    causeway::server::HttpOptions options;  // 128 connections, 30 s write deadline
    RunningServer server(options);
    std::vector<std::unique_ptr<RawConnection>> readers;
    for (int id = 1; id <= 130; ++id) {
        readers.push_back(slow_reader(server.port(), id, 3000));  // ~450 KB each, none read
    }
    // Their unsent bytes must have waited a second before a slow reader is made to give way.
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    const auto asked = std::chrono::steady_clock::now();
    httplib::Client health("127.0.0.1", server.port());
    auto healthy = health.Get("/health");
    REQUIRE(healthy);
    CHECK(healthy->status == 200);
    CHECK(std::chrono::steady_clock::now() - asked < std::chrono::seconds(2));
    RawConnection newcomer(server.port());
    REQUIRE(newcomer.send(ping_request(1000)));
    CHECK(status_line(newcomer.read_response()) == "HTTP/1.1 200 OK");
}

TEST_CASE("a request queued behind busy workers is refused when the answers piled up meanwhile") {
    causeway::server::HttpOptions options;
    options.max_buffered_bytes = 256 * 1024;
    options.worker_threads = 1;
    RunningServer server(options);
    RawConnection busy(server.port());
    REQUIRE(busy.send(steps_request(1, 1000)));  // the one worker, for a second
    while (!server.tool_started()) {
        std::this_thread::yield();
    }
    // Both accepted while nothing is buffered, both queued; the stream runs first and leaves
    // about 700 KB its client does not read.
    auto reader = slow_reader(server.port(), 2, 5000);
    RawConnection queued(server.port());
    REQUIRE(queued.send(ping_request(3)));
    const std::string answer = queued.read_response();
    CHECK(status_line(answer) == "HTTP/1.1 503 Service Unavailable");
    CHECK(body_of(answer).find("not read yet") != std::string::npos);
}
