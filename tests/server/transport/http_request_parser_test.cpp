// The HTTP/1.1 request parser: the same request in any pieces, chunked bodies decoded and
// counted against the limit as they arrive, pipelined requests left for the caller, and every
// malformed or oversized message refused with the status to answer.
#include <catch2/catch.hpp>

#include <string>

#include "server/transport/http_request_parser.hpp"
#include "tests/server/transport/feed_in_pieces.hpp"

using causeway::server::HttpParserLimits;
using causeway::server::HttpRequestParser;
using State = HttpRequestParser::State;

namespace {

std::string feed(HttpRequestParser& parser, const std::string& bytes, std::size_t piece) {
    return causeway::testing::feed_in_pieces(parser, bytes, piece);
}

HttpRequestParser parser_with_body_limit(std::size_t bytes) {
    return HttpRequestParser(HttpParserLimits{.max_body_bytes = bytes});
}

const std::string kPing = R"({"jsonrpc":"2.0","id":1,"method":"ping"})";

}  // namespace

TEST_CASE("a request parses the same whole or a byte at a time") {
    const std::string request =
        "\r\nPOST /mcp?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8787\r\n"
        "content-length: " +
        std::to_string(kPing.size()) + "\r\nX-Empty:\r\n\r\n" + kPing;
    for (std::size_t piece : {request.size(), std::size_t{1}, std::size_t{7}}) {
        INFO(piece);
        auto parser = parser_with_body_limit(1024);
        CHECK(feed(parser, request, piece).empty());
        REQUIRE(parser.state() == State::kComplete);
        const auto& parsed = parser.request();
        CHECK(parsed.method == "POST");
        CHECK(parsed.target == "/mcp?x=1");
        CHECK(parsed.path == "/mcp");
        CHECK(parsed.header("HOST") == "127.0.0.1:8787");
        CHECK(parsed.has_header("x-empty"));
        CHECK(parsed.body == kPing);
        CHECK(parsed.keep_alive());
    }
}

TEST_CASE("a chunked body is decoded, with extensions and trailers") {
    auto parser = parser_with_body_limit(1024);
    const std::string request =
        "POST /mcp HTTP/1.1\r\nTransfer-Encoding: Chunked\r\n\r\n"
        "5;name=value\r\nhello\r\n1\r\n \r\n5\r\nworld\r\n0\r\nX-Sum: 1\r\n\r\n";
    for (std::size_t piece : {request.size(), std::size_t{1}}) {
        parser.reset();
        CHECK(feed(parser, request, piece).empty());
        REQUIRE(parser.state() == State::kComplete);
        CHECK(parser.request().body == "hello world");
    }
}

TEST_CASE("a body over the limit is refused before it is read, chunked or not") {
    auto parser = parser_with_body_limit(100);
    feed(parser, "POST /mcp HTTP/1.1\r\nContent-Length: 101\r\n\r\n", 1000);
    REQUIRE(parser.state() == State::kFailed);
    CHECK(parser.failure().status == 413);
    // Chunked: refused at the size line of the chunk that passes the limit.
    parser.reset();
    feed(parser, "POST /mcp HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n32\r\n", 1000);
    CHECK(parser.state() == State::kBody);
    feed(parser, std::string(50, 'a') + "\r\n33\r\n", 1000);
    REQUIRE(parser.state() == State::kFailed);
    CHECK(parser.failure().status == 413);
    parser.reset();
    feed(parser, "POST /mcp HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffffff\r\n",
         1000);
    CHECK(parser.failure().status == 413);
}

TEST_CASE("pipelined requests: the parser stops at the end of the first") {
    auto parser = parser_with_body_limit(1024);
    const std::string first = "GET /health HTTP/1.1\r\nHost: a\r\n\r\n";
    const std::string second = "GET /health HTTP/1.1\r\nHost: b\r\nConnection: close\r\n\r\n";
    CHECK(feed(parser, first + second, 1000) == second);
    CHECK(parser.request().header("Host") == "a");
    parser.reset();
    CHECK(feed(parser, second, 1000).empty());
    CHECK_FALSE(parser.request().keep_alive());
}

TEST_CASE("malformed requests are refused with the status to answer") {
    const std::pair<std::string, int> cases[] = {
        {"GARBAGE\r\n\r\n", 400},
        {"GET /  HTTP/1.1\r\n\r\n", 400},
        {"GET / HTTP/2.0\r\n\r\n", 505},
        {"GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n", 400},
        {"GET / HTTP/1.1\r\nNo colon here\r\n\r\n", 400},
        {"GET / HTTP/1.1\r\nX: a\x01z\r\n\r\n", 400},
        {"POST / HTTP/1.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n", 400},
        {"POST / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n", 400},
        {"POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", 400},
        {"POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", 501},
        {"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nxyz\r\n", 400},
        {"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n", 400},
        {"GET / HTTP/1.1\r\nX: " + std::string(20'000, 'a') + "\r\n\r\n", 431},
        {"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nhost: evil.example\r\n\r\n", 400},
        {"POST / HTTP/1.1\r\nOrigin: http://127.0.0.1\r\nOrigin: http://evil\r\n\r\n", 400},
    };
    for (const auto& [request, status] : cases) {
        INFO(request.substr(0, 80));
        auto parser = parser_with_body_limit(1024);
        feed(parser, request, 1000);
        REQUIRE(parser.state() == State::kFailed);
        CHECK(parser.failure().status == status);
        CHECK_FALSE(parser.failure().message.empty());
    }
}

TEST_CASE("HTTP/1.0 closes unless asked, Expect: 100-continue is seen before the body") {
    auto parser = parser_with_body_limit(1024);
    feed(parser, "GET / HTTP/1.0\r\n\r\n", 1000);
    CHECK_FALSE(parser.request().keep_alive());
    parser.reset();
    feed(parser, "GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n", 1000);
    CHECK(parser.request().keep_alive());
    parser.reset();
    feed(parser, "POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n", 1000);
    CHECK(parser.state() == State::kBody);
    CHECK(parser.expects_continue());
}
