#pragma once
// Feeding the HTTP request parser the way the event loop does, in pieces as they arrive: for the
// parser tests and its fuzz target.

#include <cstddef>
#include <string>
#include <string_view>

#include "server/transport/http_request_parser.hpp"

namespace causeway::testing {

// Feeds `bytes` in pieces of `piece` bytes until the request is complete or refused; returns
// the bytes the parser left (the start of a next request).
inline std::string feed_in_pieces(server::HttpRequestParser& parser, std::string_view bytes,
                                  std::size_t piece) {
    using State = server::HttpRequestParser::State;
    std::string pending;
    for (std::size_t at = 0; at < bytes.size(); at += piece) {
        pending += bytes.substr(at, piece);
        while (!pending.empty() &&
               (parser.state() == State::kHead || parser.state() == State::kBody)) {
            const std::size_t used = parser.feed(pending);
            pending.erase(0, used);
            if (used == 0) {
                break;
            }
        }
    }
    return pending;
}

}  // namespace causeway::testing
