#pragma once
// Reads HTTP/1.1 requests from a byte stream as it arrives, in any pieces, without trusting it:
// the head (request line and headers) is bounded, the body is bounded whether it comes with a
// Content-Length or chunked (decoded bytes are counted as they arrive, so a chunked body larger
// than the limit is refused at the chunk that passes it, never buffered), and every malformed
// message is a failure with the HTTP status to answer. It stops at the end of the head so the
// server can refuse a request before reading its body, and at the end of the request so bytes
// of the next one (pipelining) stay with the caller.

#include <cstddef>
#include <string>
#include <string_view>

#include "server/transport/http_message.hpp"

namespace causeway::server {

struct HttpParserLimits {
    std::size_t max_head_bytes = 16 * 1024;  // request line, headers and chunked trailers
    std::size_t max_headers = 100;
    std::size_t max_body_bytes = 1024 * 1024;  // decoded
};

struct HttpFailure {
    int status = 400;  // 400, 413, 431, 501 or 505
    std::string message;
};

class HttpRequestParser {
  public:
    enum class State {
        kHead,      // reading the request line and the headers
        kBody,      // the head is read (request() has it); reading the body
        kComplete,  // the whole request is read
        kFailed,    // failure() says why; the connection cannot be read further
    };

    explicit HttpRequestParser(HttpParserLimits limits) : limits_(limits) {}

    // Consumes bytes of `input` and returns how many it used: all of them, or fewer when the head
    // or the request ends inside `input` (call again with the rest after looking at the head).
    std::size_t feed(std::string_view input);

    State state() const { return state_; }
    // Whether any byte of this request arrived (blank lines before it excepted).
    bool started() const { return started_; }
    // The request: its head from kBody on, its body too once kComplete.
    const HttpRequest& request() const { return request_; }
    HttpRequest take_request() { return std::move(request_); }
    const HttpFailure& failure() const { return failure_; }
    // "Expect: 100-continue" with a body still to read: the client waits for a 100 first.
    bool expects_continue() const;

    // Ready for the next request on the same connection.
    void reset();

  private:
    enum class Framing { kNone, kLength, kChunkSize, kChunkData, kChunkDataEnd, kTrailers };

    std::size_t feed_head(std::string_view input);
    std::size_t feed_body(std::string_view input);
    // Reads one line (without its end) into line_ across calls; true once it is whole.
    bool read_line(std::string_view input, std::size_t& used, std::size_t max_bytes,
                   int too_long_status);
    void parse_head(std::string_view head);
    void parse_chunk_size();
    void fail(int status, std::string message);

    HttpParserLimits limits_;
    State state_ = State::kHead;
    bool started_ = false;
    std::string head_;  // bytes of the head so far
    std::size_t head_scanned_ = 0;
    Framing framing_ = Framing::kNone;
    std::size_t remaining_ = 0;  // of the Content-Length body or of the current chunk
    std::string line_;           // a chunk-size or trailer line being read
    std::size_t trailer_bytes_ = 0;
    HttpRequest request_;
    HttpFailure failure_;
};

}  // namespace causeway::server
