#pragma once
// MCP over Streamable HTTP: POST /mcp answered with JSON or an SSE stream as the client accepts
// (SSE when the request wants progress notifications), sessions minted by initialize and ended by
// DELETE /mcp (http_sessions.hpp), GET /mcp 405 (no server-initiated stream), GET /health. Guards:
// Host and Origin must name this loopback server (403 otherwise: DNS rebinding), optional bearer
// token, body size limit, read/write timeouts, a pool of worker threads for concurrent clients.

#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "server/dispatcher.hpp"
#include "tracedb/result.hpp"

namespace causeway::server {

struct HttpOptions {
    std::string host = "127.0.0.1";
    int port = 8787;  // 0: any free port (see HttpTransport::port)
    // Clients must send `Authorization: Bearer <token>` when set. Read from CAUSEWAY_MCP_TOKEN or
    // a file, never from the command line (where `ps` would show it).
    std::optional<std::string> bearer_token;
    std::size_t max_body_bytes = 1024 * 1024;
    int read_timeout_s = 10;
    int write_timeout_s = 30;
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
    int port() const { return port_; }
    // Serves until stop(); returns false when the server failed.
    bool serve();
    void stop();

  private:
    class Impl;
    std::unique_ptr<Impl> impl_;
    int port_ = 0;
};

}  // namespace causeway::server
