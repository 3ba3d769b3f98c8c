#pragma once
// MCP over Streamable HTTP: POST /mcp answered with JSON or an SSE stream as the client accepts
// (SSE when the request wants progress notifications), sessions minted by initialize and ended by
// DELETE /mcp (http_sessions.hpp), GET /mcp 405 (no server-initiated stream), GET /health. Guards:
// Host and Origin must name this loopback server (403 otherwise: DNS rebinding), optional bearer
// token, body size limit (chunked bodies included), a whole-request deadline, a bound on
// connections. The HTTP server underneath is our own (http_server.hpp says why): refusals and
// /health are answered as soon as the head arrives, MCP requests on worker threads.

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "base/result.hpp"
#include "server/rpc/dispatcher.hpp"

namespace causeway::server {

struct HttpOptions {
    std::string host = "127.0.0.1";
    int port = 8787;  // 0: any free port (see HttpTransport::port)
    // Clients must send `Authorization: Bearer <token>` when set. Read from CAUSEWAY_MCP_TOKEN or
    // a file, never from the command line (where `ps` would show it).
    std::optional<std::string> bearer_token;
    std::size_t max_body_bytes = 1024 * 1024;
    // From a request's first byte to its last (408 after).
    std::chrono::milliseconds request_timeout{10'000};
    // A keep-alive connection waiting for its next request is closed after this.
    std::chrono::milliseconds idle_timeout{5'000};
    // A client that has not taken every byte queued for it this long is cut off.
    std::chrono::milliseconds write_timeout{30'000};
    // Unsent answer bytes: of one connection (past it, that client is cut off), and of all of
    // them (past it, new requests get 503).
    std::size_t max_output_bytes_per_connection = 32 * 1024 * 1024;
    std::size_t max_buffered_bytes = 256 * 1024 * 1024;
    std::size_t max_connections = 128;
    std::size_t worker_threads = 8;
};

class HttpTransport {
  public:
    HttpTransport(Dispatcher& dispatcher, HttpOptions options);
    ~HttpTransport();
    HttpTransport(const HttpTransport&) = delete;
    HttpTransport& operator=(const HttpTransport&) = delete;

    // Binds the listening socket; the error says which address and why.
    Status bind();
    // The bound port (the chosen one when HttpOptions::port was 0).
    int port() const;
    // Serves until stop(); returns false when the server failed.
    bool serve();
    void stop();

  private:
    class Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace causeway::server
