// The HTTP/1.1 request parser (server/transport/http_request_parser.hpp) on any bytes, fed whole
// and in pieces: the pieces must not change the outcome (a server reads whatever the network gives
// it), a body never passes the limit, every refusal carries a status the server can answer.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/fuzz_check.hpp"
#include "server/transport/http_request_parser.hpp"
#include "tests/server/transport/feed_in_pieces.hpp"

using causeway::fuzz::require;
using causeway::server::HttpParserLimits;
using causeway::server::HttpRequestParser;
using State = HttpRequestParser::State;

namespace {

constexpr HttpParserLimits kLimits{
    .max_head_bytes = 2048, .max_headers = 16, .max_body_bytes = 4096};

// Feeds `bytes` in pieces of `piece` bytes; returns how many bytes the parser consumed.
std::size_t feed(HttpRequestParser& parser, std::string_view bytes, std::size_t piece) {
    return bytes.size() - causeway::testing::feed_in_pieces(parser, bytes, piece).size();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) {
        return 0;
    }
    // The first byte picks the piece size; the rest is the stream.
    const std::size_t piece = 1 + data[0] % 17;
    const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
    HttpRequestParser whole(kLimits);
    HttpRequestParser pieces(kLimits);
    const std::size_t whole_used = feed(whole, bytes, bytes.size() + 1);
    const std::size_t pieces_used = feed(pieces, bytes, piece);
    require(whole.state() == pieces.state(), "pieces do not change the outcome");
    if (whole.state() == State::kFailed) {
        const int status = whole.failure().status;
        require(status == 400 || status == 413 || status == 431 || status == 501 || status == 505,
                "a refusal carries a status the server answers");
        require(status == pieces.failure().status, "pieces do not change the refusal");
        require(!whole.failure().message.empty(), "a refusal says why");
        return 0;
    }
    require(whole_used == pieces_used, "pieces do not change where the request ends");
    if (whole.state() == State::kComplete) {
        require(whole.request().body == pieces.request().body, "pieces do not change the body");
        require(whole.request().body.size() <= kLimits.max_body_bytes, "a body within the limit");
        require(whole.request().headers.size() <= kLimits.max_headers, "headers within the limit");
    }
    return 0;
}
