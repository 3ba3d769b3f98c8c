#pragma once
// A small HTTP/1.1 server for the MCP transport, written because the linked cpp-httplib
// (Debian's 0.11.4) cannot be made safe against slow or hostile clients: it gives each
// connection a pool thread for its whole life (ten clients sending a byte every 2 s took all of
// them and /health went unanswered for 30 s), its read timeout restarts at every byte (a client
// sending a byte every 5 s stays forever), it has no bound on connections, and it reads chunked
// bodies without its body limit (a 400 MiB chunked body was buffered). Its sources are compiled
// into the shared library, so none of this can be configured or patched from here.
//
// Shape: one event-loop thread (poll) owns every socket. It accepts (at most max_connections
// at once: an idle keep-alive connection makes room for a new one, else the connection holding
// the most unsent bytes for a second or more, else the newcomer gets 503),
// reads requests as bytes arrive (HttpRequestParser: bounded head, body limit counted for
// chunked bodies too), holds each request to a whole-request deadline from its first byte (408),
// closes keep-alive connections idle too long, and writes every response, cutting off a client
// that stops reading. The application sees a request twice: its head on the loop thread
// (on_head: refuse at once, or answer at once when the answer costs nothing, such as /health:
// so no number of slow or busy clients can delay it) and, when it asked for the body, the whole
// request on one of the worker threads (handle), which produce bytes the loop writes.

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.hpp"
#include "server/transport/http_message.hpp"

namespace causeway::server {

struct HttpServerOptions {
    std::string host = "127.0.0.1";
    int port = 0;  // 0: any free port
    std::size_t max_body_bytes = 1024 * 1024;
    // From a request's first byte to its last: a client that sends slowly is cut off (408).
    std::chrono::milliseconds request_timeout{10'000};
    // A keep-alive connection waiting for its next request is closed after this.
    std::chrono::milliseconds idle_timeout{5'000};
    // A client must take every byte queued for it within this long of when its output was last
    // empty, else it is cut off: a whole-response deadline that partial reads do not restart.
    std::chrono::milliseconds write_timeout{30'000};
    // Unsent answer bytes one connection may hold; a client that lets more pile up is cut off.
    std::size_t max_output_bytes_per_connection = 32 * 1024 * 1024;
    // Unsent answer bytes of all connections together; past it, new requests get 503 (refusals
    // and what on_head answers, /health, still go out).
    std::size_t max_buffered_bytes = 256 * 1024 * 1024;
    // The kernel's send buffer of each connection (SO_SNDBUF), fixed rather than autotuned up to
    // 4 MiB: what a slow reader leaves unsent then waits in the server's output, where it is
    // counted against the caps and the deadline above.
    int send_buffer_bytes = 256 * 1024;
    std::size_t max_connections = 128;
    // MCP clients keep one connection for many requests; after this many it is closed.
    std::size_t max_requests_per_connection = 1000;
    std::size_t worker_threads = 8;
};

// How a worker answers one request: whole (send) or as a stream of chunks (begin_stream, any
// number of stream calls, end_stream). Once a client is gone, writes are dropped.
class HttpResponseWriter {
  public:
    virtual ~HttpResponseWriter() = default;
    virtual void send(const HttpResponse& response) = 0;
    virtual void begin_stream(const HttpResponse& head) = 0;
    virtual void stream(std::string_view data) = 0;
    virtual void end_stream() = 0;
};

struct HttpRoutes {
    // On the loop thread, when a request's head has arrived: an answer (a refusal, or something
    // that costs nothing), or nothing to read the body and call `handle`. Must not block.
    std::function<std::optional<HttpResponse>(const HttpRequest& head)> on_head;
    // On a worker thread, with the whole request.
    std::function<void(const HttpRequest& request, HttpResponseWriter& writer)> handle;
    // The answer to a request the server refuses itself (malformed, too large, too slow, too
    // many connections), from its status and a message saying what to do.
    std::function<HttpResponse(int status, const std::string& message)> refusal;
};

class HttpServer {
  public:
    HttpServer(HttpServerOptions options, HttpRoutes routes);
    ~HttpServer();
    HttpServer(const HttpServer&) = delete;
    HttpServer& operator=(const HttpServer&) = delete;

    // Binds and listens; the error names the address and the cause.
    Status bind();
    // The bound port (the chosen one when the options said 0).
    int port() const;
    // Serves until stop(); false when the event loop failed.
    bool serve();
    // Thread-safe; serve() returns once the requests being handled have finished.
    void stop();

  private:
    class Loop;
    std::unique_ptr<Loop> loop_;
};

}  // namespace causeway::server
