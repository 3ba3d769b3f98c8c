#include "tests/server/transport/http_test_server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <chrono>
#include <utility>

#include "tests/server/tools/steps_tool.hpp"

namespace causeway::testing {
namespace {

server::HttpOptions with_any_port(server::HttpOptions options) {
    options.port = 0;
    return options;
}

}  // namespace

RunningServer::RunningServer(server::HttpOptions options)
    : harness_(steps_catalog(started_)),
      transport_(harness_.dispatcher(), with_any_port(std::move(options))) {
    auto bound = transport_.bind();
    REQUIRE(bound.ok());
    thread_ = std::thread([this] { transport_.serve(); });
    client_ = std::make_unique<httplib::Client>("127.0.0.1", transport_.port());
    client_->set_read_timeout(10, 0);
    while (!client_->Get("/health")) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

RunningServer::~RunningServer() {
    transport_.stop();
    thread_.join();
}

httplib::Result RunningServer::post(const nlohmann::json& body, httplib::Headers headers,
                                    const std::string& accept) {
    headers.emplace("Accept", accept);
    return client_->Post("/mcp", headers, body.dump(), "application/json");
}

RawConnection::RawConnection(int port, int receive_buffer_bytes)
    : fd_(::socket(AF_INET, SOCK_STREAM, 0)) {
    if (receive_buffer_bytes > 0) {
        ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &receive_buffer_bytes,
                     sizeof receive_buffer_bytes);
    }
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    // A failed connect shows as a failed send (no assertion here: threads of a test use it).
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
        ::close(fd_);
        fd_ = -1;
    }
}

RawConnection::~RawConnection() {
    if (fd_ >= 0) {
        ::close(fd_);
    }
}

bool RawConnection::send(const std::string& bytes) {
    return fd_ >= 0 && ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) ==
                           static_cast<ssize_t>(bytes.size());
}

bool RawConnection::fill() {
    if (fd_ < 0) {
        return false;
    }
    char chunk[16 * 1024];
    const ssize_t got = ::recv(fd_, chunk, sizeof chunk, 0);
    if (got <= 0) {
        return false;
    }
    buffer_.append(chunk, static_cast<std::size_t>(got));
    return true;
}

bool RawConnection::read_some(std::size_t most) {
    std::string chunk(most, '\0');
    return fd_ >= 0 && ::recv(fd_, chunk.data(), chunk.size(), 0) > 0;
}

std::string RawConnection::read_response() {
    std::size_t head_end = std::string::npos;
    while ((head_end = buffer_.find("\r\n\r\n")) == std::string::npos) {
        if (!fill()) {
            return {};
        }
    }
    head_end += 4;
    const std::string head = buffer_.substr(0, head_end);
    std::size_t total = head_end;
    if (auto length = head.find("Content-Length: "); length != std::string::npos) {
        total += std::stoul(head.substr(length + 16));
    } else if (head.find("Transfer-Encoding: chunked") != std::string::npos) {
        while ((total = buffer_.find("\r\n0\r\n\r\n", head_end)) == std::string::npos) {
            if (!fill()) {
                return {};
            }
        }
        total += 7;
    }
    while (buffer_.size() < total) {
        if (!fill()) {
            return {};
        }
    }
    std::string response = buffer_.substr(0, total);
    buffer_.erase(0, total);
    return response;
}

std::string RawConnection::read_to_close() {
    while (fill()) {
    }
    return std::exchange(buffer_, {});
}

bool RawConnection::closed_by_server() {
    read_to_close();
    return true;
}

std::string ping_request(int id, bool keep_alive) {
    const std::string body =
        R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":"ping"})";
    return "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
           "Accept: application/json\r\n" +
           std::string(keep_alive ? "" : "Connection: close\r\n") +
           "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

}  // namespace causeway::testing
