#pragma once
// HTTP/1.1 messages as the server's transport sees them: a request read in full (head and
// decoded body) and a response to write, whole or as a stream of chunks.

#include <string>
#include <string_view>
#include <vector>

namespace causeway::server {

struct HttpHeader {
    std::string name;  // as sent; compared without case
    std::string value;
};

struct HttpRequest {
    std::string method;     // "POST"
    std::string target;     // as sent: "/mcp?x=1"
    std::string path;       // the target without its query: "/mcp"
    int minor_version = 1;  // HTTP/1.<minor_version>
    std::vector<HttpHeader> headers;
    std::string body;  // decoded: the chunks of a chunked body joined

    // The value of the first header named `name` (any case), or "" when there is none.
    std::string header(std::string_view name) const;
    bool has_header(std::string_view name) const;
    // Whether the client wants the connection kept after the answer: HTTP/1.1 unless its
    // Connection tokens hold "close", HTTP/1.0 only when they hold "keep-alive".
    bool keep_alive() const;
};

struct HttpResponse {
    int status = 200;
    std::vector<HttpHeader> headers;
    std::string content_type;  // empty: no body
    std::string body;
};

// The response as bytes, framed by Content-Length; "Connection: close" when !keep_alive.
std::string serialize_response(const HttpResponse& response, bool keep_alive);
// The head of a streamed response (Transfer-Encoding: chunked); the chunks follow. An HTTP/1.0
// client knows no chunks: its stream is the raw data, ended by closing the connection.
std::string serialize_stream_head(const HttpResponse& head, bool keep_alive, bool chunked);
// One chunk of a streamed response.
std::string serialize_chunk(std::string_view data);
// The end of a streamed response.
inline constexpr std::string_view kLastChunk = "0\r\n\r\n";

bool equals_ignoring_case(std::string_view a, std::string_view b);
// `text` without the spaces and tabs (HTTP's optional whitespace) at either end.
std::string_view trim(std::string_view text);

}  // namespace causeway::server
