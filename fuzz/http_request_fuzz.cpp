// The HTTP/1.1 request parser (server/http_request_parser.hpp) on any bytes, fed whole and in
// pieces: the pieces must not change the outcome (a server reads whatever the network gives
// it), a body never passes the limit, every refusal carries a status the server can answer.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz/fuzz_check.hpp"
#include "server/http_request_parser.hpp"

using causeway::fuzz::require;
using causeway::server::HttpParserLimits;
using causeway::server::HttpRequestParser;
using State = HttpRequestParser::State;

namespace {

constexpr HttpParserLimits kLimits{.max_head_bytes = 2048, .max_headers = 16, .max_body_bytes = 4096};

// Feeds `bytes` in pieces of `piece` bytes, as the event loop does, until the request is
// complete or refused; returns how many bytes it consumed.
std::size_t feed(HttpRequestParser& parser, std::string_view bytes, std::size_t piece) {
    std::size_t consumed = 0;
    std::string pending;
    for (std::size_t at = 0; at < bytes.size(); at += piece) {
        pending += bytes.substr(at, piece);
        while (!pending.empty() &&
               (parser.state() == State::kHead || parser.state() == State::kBody)) {
            const std::size_t used = parser.feed(pending);
            require(used <= pending.size(), "feed uses at most what it is given");
            pending.erase(0, used);
            consumed += used;
            if (used == 0) {
                break;
            }
        }
    }
    return consumed;
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
