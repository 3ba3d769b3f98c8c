#pragma once
// The HTTP transport on 127.0.0.1, on a free port, serving the "steps" test catalog
// (tests/server/tools/steps_tool.hpp), with cpp-httplib's client for ordinary requests and a raw
// socket client for what a well-behaved client never sends (bytes one at a time, chunked bodies,
// pipelining).

#include <httplib.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "server/transport/http_transport.hpp"
#include "tests/server/rpc/dispatcher_harness.hpp"

namespace causeway::testing {

class RunningServer {
  public:
    explicit RunningServer(server::HttpOptions options = {});
    ~RunningServer();

    int port() const { return transport_.port(); }
    httplib::Client& client() { return *client_; }
    // Whether a call of the steps tool has begun.
    bool tool_started() const { return started_; }
    httplib::Result post(const nlohmann::json& body, httplib::Headers headers = {},
                         const std::string& accept = "application/json, text/event-stream");

  private:
    std::atomic<bool> started_{false};
    DispatcherHarness harness_;
    server::HttpTransport transport_;
    std::thread thread_;
    std::unique_ptr<httplib::Client> client_;
};

// A blocking TCP connection to 127.0.0.1:port that sends exactly the bytes given.
class RawConnection {
  public:
    // receive_buffer_bytes > 0: the socket's receive buffer (SO_RCVBUF) before it connects, so
    // that a client that does not read leaves the server holding its answer.
    explicit RawConnection(int port, int receive_buffer_bytes = 0);
    ~RawConnection();
    RawConnection(const RawConnection&) = delete;
    RawConnection& operator=(const RawConnection&) = delete;

    // False once the server has closed the connection.
    bool send(const std::string& bytes);
    // One whole response (head and a Content-Length or chunked body), or "" when the connection
    // closed first. Waits as long as it takes.
    std::string read_response();
    // Everything until the server closes the connection (an answer framed by the close).
    std::string read_to_close();
    // Whether the server closed the connection: reads until end of file, dropping what comes.
    bool closed_by_server();
    // Reads at most `most` bytes, dropping them (waits for the first); false once the server
    // has closed the connection.
    bool read_some(std::size_t most);

  private:
    bool fill();  // reads more into buffer_; false at end of file

    int fd_ = -1;
    std::string buffer_;
};

// "POST /mcp" with a ping as its JSON body, framed by Content-Length.
std::string ping_request(int id, bool keep_alive = true);

}  // namespace causeway::testing
