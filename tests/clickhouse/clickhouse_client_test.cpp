// The ClickHouse client against servers that misbehave, each a loopback socket of this test: one
// that never answers, one that trickles an answer without end, one whose answer never ends, one
// that answers an error of 50 MB with terminal escapes, one that answers 200 to everything and
// stores nothing, one that answers junk and one that closes without answering. Each is cut off at
// the client's limits, or its push left incomplete, with an error that says what happened.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "fleet/clickhouse_client.hpp"
#include "fleet/push.hpp"
#include "tests/support/temp_dir.hpp"
#include "tracedb/writer.hpp"

using causeway::fleet::ClickHouseClient;
using causeway::fleet::ClickHouseLimits;
using Clock = std::chrono::steady_clock;

namespace {

// Closes a connection as a server does: stops sending, then reads what the client still sends
// (a request body after the head) until it closes. Closing with bytes unread would reset the
// connection, and the client could lose the answer under it.
void close_gracefully(int fd) {
    ::shutdown(fd, SHUT_WR);
    const timeval wait{.tv_sec = 2, .tv_usec = 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
    char unread[4096];
    while (::recv(fd, unread, sizeof unread, 0) > 0) {
    }
    ::close(fd);
}

// A server on 127.0.0.1 that reads each request's head and answers with `answer(fd, stop)`.
class MisbehavingServer {
  public:
    using Answer = std::function<void(int fd, const std::atomic<bool>& stop)>;
    // An answer that depends on the request's head (its first 4 KiB).
    using HeadAnswer = std::function<void(int fd, const std::string& head)>;

    explicit MisbehavingServer(HeadAnswer answer)
        : MisbehavingServer(Answer{}, std::move(answer)) {}
    explicit MisbehavingServer(Answer answer, HeadAnswer head_answer = {})
        : listener_(::socket(AF_INET, SOCK_STREAM, 0)) {
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t length = sizeof address;
        REQUIRE(::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
        REQUIRE(::listen(listener_, 4) == 0);
        REQUIRE(::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length) == 0);
        port_ = ntohs(address.sin_port);
        thread_ = std::thread([this, answer = std::move(answer),
                               head_answer = std::move(head_answer)] {
            for (int fd; (fd = ::accept(listener_, nullptr, nullptr)) >= 0;) {
                char head[4096];
                const ssize_t got = ::recv(fd, head, sizeof head, 0);
                if (head_answer) {
                    head_answer(
                        fd, std::string(head, static_cast<std::size_t>(std::max<ssize_t>(got, 0))));
                } else {
                    answer(fd, stop_);
                }
                close_gracefully(fd);
            }
        });
    }
    ~MisbehavingServer() {
        stop_ = true;
        ::shutdown(listener_, SHUT_RDWR);
        thread_.join();
        ::close(listener_);
    }
    MisbehavingServer(const MisbehavingServer&) = delete;
    MisbehavingServer& operator=(const MisbehavingServer&) = delete;

    std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

  private:
    int listener_;
    int port_ = 0;
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

bool send_all(int fd, const std::string& bytes) {
    return ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL) ==
           static_cast<ssize_t>(bytes.size());
}

std::string chunk(const std::string& data) {
    char size[32];
    std::snprintf(size, sizeof size, "%zx\r\n", data.size());
    return size + data + "\r\n";
}

constexpr ClickHouseLimits kTight{.deadline = std::chrono::seconds(1), .max_answer_bytes = 1 << 20};

// Runs one query against `server`; returns its error and how long it took.
std::pair<std::string, Clock::duration> failed_query(const MisbehavingServer& server) {
    auto client = ClickHouseClient::open(server.url(), false, kTight);
    REQUIRE(client);
    const auto start = Clock::now();
    auto answer = client->query("SELECT 1 FORMAT TSV");
    const auto took = Clock::now() - start;
    REQUIRE_FALSE(answer);
    return {answer.error().message, took};
}

// Pushes a one-snapshot trace of node n1 to `server`; its outcome.
causeway::Result<causeway::fleet::PushSummary> push_to(const MisbehavingServer& server) {
    causeway::testing::TempDir dir;
    const std::string db = dir.file("run.db");
    {
        auto writer = causeway::tracedb::TraceWriter::create(db, {.host = "n1", .cpu_count = 2});
        REQUIRE(writer);
        REQUIRE(writer->add_snapshot({.ts_ns = 1}));
        REQUIRE(writer->finish(2));
    }
    auto client = ClickHouseClient::open(server.url(), false, kTight);
    REQUIRE(client);
    causeway::fleet::PushOptions options;
    options.job = "j";
    options.words = {[](const causeway::analysis::CausalChain&) { return std::string("cause"); },
                     [](const causeway::analysis::Diagnosis&) { return std::string("summary"); }};
    return causeway::fleet::push_trace(*client, db, options);
}

}  // namespace

TEST_CASE("a server that never answers, or trickles, is cut off at the deadline",
          "[fleet][clickhouse]") {
    MisbehavingServer stalls([](int, const std::atomic<bool>& stop) {
        while (!stop) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    });
    MisbehavingServer trickles([](int fd, const std::atomic<bool>& stop) {
        send_all(fd, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
        while (!stop && send_all(fd, chunk("1\t"))) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
    });
    for (const MisbehavingServer* server : {&stalls, &trickles}) {
        const auto [error, took] = failed_query(*server);
        INFO(error);
        CHECK(error.find("did not answer `SELECT 1 FORMAT TSV` within 1 s") != std::string::npos);
        CHECK(error.find("--clickhouse-timeout") != std::string::npos);
        CHECK(took < std::chrono::seconds(5));
    }
}

TEST_CASE("an endless answer is cut off at the answer cap", "[fleet][clickhouse]") {
    MisbehavingServer endless([](int fd, const std::atomic<bool>& stop) {
        send_all(fd, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
        const std::string block = chunk(std::string(64 * 1024, 'x'));
        while (!stop && send_all(fd, block)) {
        }
    });
    const auto [error, took] = failed_query(endless);
    INFO(error);
    CHECK(error.find("with more than 1048576 bytes") != std::string::npos);
}

TEST_CASE("an error answer is quoted short and printable", "[fleet][clickhouse]") {
    MisbehavingServer huge_error([](int fd, const std::atomic<bool>&) {
        std::string body = "Code: 62. DB::Exception: \x1b[2J\x1b]0;owned\x07 syntax error ";
        body += std::string(50 << 20, 'e');
        send_all(fd, "HTTP/1.1 500 Internal Server Error\r\nContent-Length: " +
                         std::to_string(body.size()) + "\r\n\r\n" + body);
    });
    auto client = ClickHouseClient::open(
        huge_error.url(), false,
        {.deadline = std::chrono::seconds(30), .max_answer_bytes = std::size_t{64} << 20});
    REQUIRE(client);
    auto answer = client->query("SELECT 1 FORMAT TSV");
    REQUIRE_FALSE(answer);
    const std::string& error = answer.error().message;
    INFO(error);
    CHECK(error.find("(HTTP 500): Code: 62. DB::Exception: ?[2J?]0;owned? syntax error") !=
          std::string::npos);
    CHECK(error.size() < 2500);
    CHECK(error.find('\x1b') == std::string::npos);
}

TEST_CASE("a push is not done until ClickHouse confirms the rows it stored",
          "[fleet][clickhouse]") {
    // Accepts every request with 200 and an empty body: no push state, no rows, ever.
    MisbehavingServer stores_nothing([](int fd, const std::atomic<bool>&) {
        send_all(fd, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
    });
    auto pushed = push_to(stores_nothing);
    REQUIRE_FALSE(pushed);
    INFO(pushed.error().message);
    CHECK(pushed.error().message.find("ClickHouse holds 0 of the ") != std::string::npos);
    CHECK(pushed.error().message.find(" this push sent, though it accepted every batch") !=
          std::string::npos);
    CHECK(pushed.error().message.find("stays incomplete") != std::string::npos);
}

TEST_CASE("a server that answers junk, or closes without answering, fails the push saying so",
          "[fleet][clickhouse]") {
    MisbehavingServer junk([](int fd, const std::atomic<bool>&) {
        send_all(fd,
                 "HTTP/1.1 200 OK\r\nContent-Length: 6\r\nConnection: close\r\n\r\n"
                 "\xff\xfegarb");
    });
    auto pushed = push_to(junk);
    REQUIRE_FALSE(pushed);
    INFO(pushed.error().message);
    CHECK(pushed.error().message.find("the push state of node n1: the server's RowBinary answer "
                                      "ends in the middle of") != std::string::npos);

    MisbehavingServer closes([](int, const std::atomic<bool>&) {});
    pushed = push_to(closes);
    REQUIRE_FALSE(pushed);
    INFO(pushed.error().message);
    CHECK(pushed.error().message.find(closes.url()) != std::string::npos);
}

TEST_CASE("one client sends from several threads at once, each answer its own",
          "[fleet][clickhouse]") {
    // Answers each query with its own text, so that an answer given to the wrong request shows.
    // (No assertion here: this runs on the server's thread, and Catch's are the test thread's.)
    MisbehavingServer echo([](int fd, const std::string& head) {
        const std::size_t end = head.find("\r\n\r\n");
        const std::size_t length_at = head.find("Content-Length: ");
        std::string body;
        if (end != std::string::npos && length_at != std::string::npos) {
            body = head.substr(end + 4);
            body.resize(std::stoul(head.substr(length_at + 16)), '\0');
        }
        // The body may come after the head, in reads of its own.
        for (std::size_t got = end == std::string::npos ? 0 : head.size() - end - 4;
             got < body.size();) {
            const ssize_t more = ::recv(fd, body.data() + got, body.size() - got, 0);
            if (more <= 0) {
                return;
            }
            got += static_cast<std::size_t>(more);
        }
        send_all(fd, "HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(body.size()) +
                         "\r\nConnection: close\r\n\r\n" + body);
    });
    auto client = ClickHouseClient::open(echo.url(), false, kTight);
    REQUIRE(client);
    std::vector<std::thread> threads;
    std::atomic<int> right{0};
    for (int thread = 0; thread < 4; ++thread) {
        threads.emplace_back([&, thread] {
            for (int query = 0; query < 10; ++query) {
                const std::string sql = "SELECT " + std::to_string(thread * 100 + query);
                auto answer = client->query(sql);
                right += answer && *answer == sql ? 1 : 0;
            }
        });
    }
    for (std::thread& thread : threads) {
        thread.join();
    }
    CHECK(right == 40);
}

TEST_CASE("the client asks the server which compressed body it reads", "[fleet][clickhouse]") {
    // As 18.16 answers a body in an encoding it does not know (Code 89), and 200 to the others.
    auto server_reading = [](const char* refused) {
        return MisbehavingServer::HeadAnswer([refused](int fd, const std::string& head) {
            const bool refuse = refused != nullptr && head.find(std::string("Content-Encoding: ") +
                                                                refused) != std::string::npos;
            const std::string body = refuse
                                         ? std::string(
                                               "Code: 89, e.displayText() = DB::Exception: Unknown "
                                               "Content-Encoding of HTTP request: ") +
                                               refused
                                         : std::string("1\n");
            send_all(fd, std::string(refuse ? "HTTP/1.1 400 Bad Request" : "HTTP/1.1 200 OK") +
                             "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" +
                             body);
        });
    };
    MisbehavingServer old_server(server_reading("zstd"));
    auto old_client = ClickHouseClient::open(old_server.url(), false, kTight);
    REQUIRE(old_client);
    CHECK(old_client->readable_encoding().value() == causeway::fleet::BodyEncoding::kGzip);
    MisbehavingServer current_server(server_reading(nullptr));
    auto current_client = ClickHouseClient::open(current_server.url(), false, kTight);
    REQUIRE(current_client);
    CHECK(current_client->readable_encoding().value() == causeway::fleet::BodyEncoding::kZstd);
    // Any other refusal is the answer: the server is not one to push to as it is.
    MisbehavingServer locked([](int fd, const std::atomic<bool>&) {
        const std::string body = "Code: 516. DB::Exception: Authentication failed";
        send_all(fd, "HTTP/1.1 403 Forbidden\r\nContent-Length: " + std::to_string(body.size()) +
                         "\r\n\r\n" + body);
    });
    auto locked_client = ClickHouseClient::open(locked.url(), false, kTight);
    REQUIRE(locked_client);
    auto refused = locked_client->readable_encoding();
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message.find("CLICKHOUSE_USER") != std::string::npos);
}
