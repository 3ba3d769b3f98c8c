#include "server/transport/http_server.hpp"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <exception>
#include <mutex>
#include <optional>
#include <vector>

#include "server/rpc/worker_pool.hpp"
#include "server/transport/http_request_parser.hpp"

namespace causeway::server {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kReadChunkBytes = 64 * 1024;
// After an answer that closes the connection the server stops sending (FIN) and reads and drops
// what the client still sends for this long, so that the client reads the answer instead of a
// reset (closing a socket with unread bytes resets it).
constexpr std::chrono::milliseconds kLingerTime{2'000};
// When accept fails for lack of file descriptors the listening socket stays readable: it is
// left alone this long instead of being polled in a busy loop.
constexpr std::chrono::milliseconds kAcceptPause{100};
constexpr int kListenBacklog = 128;
constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
// A connection whose unsent bytes have waited this long may be closed to make room for a new one.
constexpr std::chrono::milliseconds kEvictablePending{1'000};
constexpr std::size_t kMebibyte = 1024 * 1024;

// The unsent answer bytes of every connection, counted as workers and the loop add them and the
// loop sends them, and the cap of one connection's.
struct OutputBudget {
    std::size_t per_connection;
    std::atomic<std::size_t> buffered{0};
};

struct Connection {
    Connection(int socket, HttpParserLimits limits, Clock::time_point now)
        : fd(socket), parser(limits), idle_since(now), pending_since(now) {}

    enum class Phase {
        kReading,    // a request (or the wait for one)
        kAnswering,  // a worker or the loop produces the answer; the loop writes it
        kLingering,  // the answer is written and the connection closes (see kLingerTime)
    };

    // Used by the loop thread only.
    int fd;
    Phase phase = Phase::kReading;
    HttpRequestParser parser;
    bool head_seen = false;  // on_head has seen the head of the request being read
    std::string input;       // read, not yet parsed: the start of a pipelined request
    Clock::time_point idle_since;
    Clock::time_point request_started;
    Clock::time_point linger_until;
    std::size_t answered = 0;
    bool keep_open = true;  // after the answer being written

    // Shared with the worker producing the answer.
    std::mutex mutex;
    std::string output;
    Clock::time_point pending_since;  // the output was last empty then (its bytes wait since)
    bool answer_done = false;
    bool gone = false;        // closed: what a worker still writes is dropped
    bool overflowed = false;  // its unsent bytes passed the cap: the loop closes it
};

// With c.mutex held. Queues bytes for the client, counted against the budget; a connection that
// would hold more than its cap is dropped instead (its output freed, the loop closes it).
void append_output(Connection& c, std::string_view bytes, OutputBudget& budget) {
    if (c.gone) {
        return;
    }
    if (c.output.size() + bytes.size() > budget.per_connection) {
        budget.buffered -= c.output.size();
        std::string().swap(c.output);
        c.gone = true;
        c.overflowed = true;
        return;
    }
    if (c.output.empty()) {
        c.pending_since = Clock::now();
    }
    c.output += bytes;
    budget.buffered += bytes.size();
}

// With c.mutex held: the first `sent` bytes went out (all of them: the output is freed).
void drop_output(Connection& c, std::size_t sent, OutputBudget& budget) {
    budget.buffered -= sent;
    if (sent >= c.output.size()) {
        std::string().swap(c.output);
    } else {
        c.output.erase(0, sent);
    }
}

// How a worker's answer reaches its connection: bytes into the connection's output, then a
// wake-up of the loop, which writes them.
class ConnectionWriter final : public HttpResponseWriter {
  public:
    // `chunked`: the client speaks HTTP/1.1; a 1.0 stream is raw data ended by the close.
    ConnectionWriter(std::shared_ptr<Connection> connection, bool keep_open, bool chunked,
                     OutputBudget& budget, std::function<void()> wake)
        : connection_(std::move(connection)),
          keep_open_(keep_open),
          chunked_(chunked),
          budget_(budget),
          wake_(std::move(wake)) {}

    void send(const HttpResponse& response) override {
        push(serialize_response(response, keep_open_), true);
    }
    void begin_stream(const HttpResponse& head) override {
        streaming_ = true;
        push(serialize_stream_head(head, keep_open_, chunked_), false);
    }
    void stream(std::string_view data) override {
        if (!data.empty()) {
            push(chunked_ ? serialize_chunk(data) : std::string(data), false);
        }
    }
    void end_stream() override { push(chunked_ ? std::string(kLastChunk) : std::string(), true); }

    bool finished() const { return finished_; }
    bool streaming() const { return streaming_; }

  private:
    void push(std::string bytes, bool last) {
        {
            std::lock_guard lock(connection_->mutex);
            append_output(*connection_, bytes, budget_);
            connection_->answer_done = last;
        }
        finished_ = last;
        wake_();
    }

    std::shared_ptr<Connection> connection_;
    bool keep_open_;
    bool chunked_;
    OutputBudget& budget_;
    std::function<void()> wake_;
    bool streaming_ = false;
    bool finished_ = false;
};

}  // namespace

class HttpServer::Loop {
  public:
    Loop(HttpServerOptions options, HttpRoutes routes)
        : options_(std::move(options)),
          routes_(std::move(routes)),
          limits_{.max_body_bytes = options_.max_body_bytes},
          budget_{.per_connection = options_.max_output_bytes_per_connection} {}

    ~Loop() {
        for (int fd : {listen_fd_, wake_fd_}) {
            if (fd >= 0) {
                ::close(fd);
            }
        }
    }

    Status bind();
    int port() const { return port_; }
    bool serve();
    void stop() {
        stopping_ = true;
        wake();
    }

  private:
    bool run();
    void accept_new(Clock::time_point now);
    bool make_room(Clock::time_point now);
    void read_from(Connection& c);
    void parse(const std::shared_ptr<Connection>& c, Clock::time_point now);
    void answer_now(Connection& c, const HttpResponse& response, bool keep_open);
    void dispatch(const std::shared_ptr<Connection>& c);
    void flush(Connection& c);
    void after_answer(const std::shared_ptr<Connection>& c, Clock::time_point now);
    void check_deadlines(const std::shared_ptr<Connection>& c, Clock::time_point now);
    int poll_timeout_ms(Clock::time_point now) const;
    // The 503 for a new request while the unsent answers of all connections pass their cap.
    std::optional<HttpResponse> over_buffered_cap() const;
    void close(Connection& c);
    // Closes a client that does not take its answer with a reset: what the kernel still holds
    // for it is dropped, not delivered at the client's pace.
    void cut_off(Connection& c);
    void wake();

    HttpServerOptions options_;
    HttpRoutes routes_;
    HttpParserLimits limits_;
    OutputBudget budget_;
    int listen_fd_ = -1;
    int wake_fd_ = -1;
    int port_ = 0;
    std::atomic<bool> stopping_{false};
    Clock::time_point accept_paused_until_{};
    std::vector<std::shared_ptr<Connection>> connections_;
    std::optional<WorkerPool> workers_;
};

Status HttpServer::Loop::bind() {
    const auto refused = [&](const std::string& cause) {
        return Error{fmt::format("cannot listen on {}:{}: {}; pick another with --http HOST:PORT",
                                 options_.host, options_.port, cause)};
    };
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    addrinfo* found = nullptr;
    const std::string service = std::to_string(options_.port);
    if (int rc = ::getaddrinfo(options_.host.c_str(), service.c_str(), &hints, &found); rc != 0) {
        return refused(gai_strerror(rc));
    }
    std::string cause = "no address";
    for (addrinfo* address = found; address != nullptr && listen_fd_ < 0;
         address = address->ai_next) {
        int fd = ::socket(address->ai_family, address->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
                          address->ai_protocol);
        const int on = 1;
        if (fd >= 0 && ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on) == 0 &&
            ::bind(fd, address->ai_addr, address->ai_addrlen) == 0 &&
            ::listen(fd, kListenBacklog) == 0) {
            listen_fd_ = fd;
        } else {
            cause = std::strerror(errno);
            if (fd >= 0) {
                ::close(fd);
            }
        }
    }
    ::freeaddrinfo(found);
    if (listen_fd_ < 0) {
        return refused(cause);
    }
    sockaddr_storage bound{};
    socklen_t length = sizeof bound;
    ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&bound), &length);
    port_ = ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port
                                              : reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
    wake_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (wake_fd_ < 0) {
        return refused(fmt::format("eventfd: {}", std::strerror(errno)));
    }
    return Ok{};
}

bool HttpServer::Loop::serve() {
    workers_.emplace(options_.worker_threads);
    const bool served = run();
    for (auto& c : connections_) {
        close(*c);
    }
    connections_.clear();
    workers_.reset();  // the requests being handled finish; their answers are dropped
    return served;
}

bool HttpServer::Loop::run() {
    std::vector<pollfd> polled;
    while (!stopping_) {
        Clock::time_point now = Clock::now();
        for (auto& c : connections_) {
            check_deadlines(c, now);
        }
        polled.clear();
        const bool accepting = now >= accept_paused_until_;
        polled.push_back({accepting ? listen_fd_ : -1, POLLIN, 0});
        polled.push_back({wake_fd_, POLLIN, 0});
        for (auto& c : connections_) {
            short events = c->phase == Connection::Phase::kAnswering ? 0 : POLLIN;
            std::lock_guard lock(c->mutex);
            if (!c->output.empty()) {
                events |= POLLOUT;
            }
            polled.push_back({c->fd, events, 0});
        }
        if (::poll(polled.data(), polled.size(), poll_timeout_ms(now)) < 0) {
            if (errno == EINTR) {
                continue;
            }
            return false;
        }
        now = Clock::now();
        if ((polled[1].revents & POLLIN) != 0) {
            std::uint64_t wakes = 0;
            [[maybe_unused]] auto drained = ::read(wake_fd_, &wakes, sizeof wakes);
        }
        // Only the connections polled: accept_new adds after them.
        const std::size_t polled_connections = polled.size() - 2;
        for (std::size_t i = 0; i < polled_connections; ++i) {
            const std::shared_ptr<Connection> c = connections_[i];
            if (c->fd >= 0 && (polled[i + 2].revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
                read_from(*c);
            }
            if (c->fd >= 0 && c->phase == Connection::Phase::kReading) {
                parse(c, now);
            }
            if (c->fd >= 0) {
                flush(*c);
            }
            if (c->fd >= 0 && c->phase == Connection::Phase::kAnswering) {
                after_answer(c, now);
            }
        }
        std::erase_if(connections_, [](const auto& c) { return c->fd < 0; });
        if ((polled[0].revents & POLLIN) != 0) {
            accept_new(now);
        }
    }
    return true;
}

void HttpServer::Loop::accept_new(Clock::time_point now) {
    while (true) {
        const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
                accept_paused_until_ = now + kAcceptPause;
            }
            return;  // EAGAIN: no more waiting; ECONNABORTED and the like: that client left
        }
        if (connections_.size() >= options_.max_connections && !make_room(now)) {
            const std::string busy = serialize_response(
                routes_.refusal(503, fmt::format("the server has {} connections open, its "
                                                 "limit; retry in a moment",
                                                 options_.max_connections)),
                false);
            [[maybe_unused]] auto sent =
                ::send(fd, busy.data(), busy.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
            ::close(fd);
            continue;
        }
        const int on = 1;
        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
        ::setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &options_.send_buffer_bytes,
                     sizeof options_.send_buffer_bytes);
        connections_.push_back(std::make_shared<Connection>(fd, limits_, now));
    }
}

// Closes a connection to make room for a new one: the keep-alive connection idle the longest,
// else the one holding the most unsent bytes that have waited kEvictablePending or more (a slow
// reader); false when there is neither.
bool HttpServer::Loop::make_room(Clock::time_point now) {
    Connection* oldest = nullptr;
    Connection* slowest = nullptr;
    std::size_t most_unsent = 0;
    for (auto& c : connections_) {
        const bool idle = c->fd >= 0 && c->phase == Connection::Phase::kReading &&
                          !c->parser.started() && c->input.empty();
        if (idle && (oldest == nullptr || c->idle_since < oldest->idle_since)) {
            oldest = c.get();
        }
        std::lock_guard lock(c->mutex);
        if (c->fd >= 0 && c->output.size() > most_unsent &&
            now - c->pending_since >= kEvictablePending) {
            slowest = c.get();
            most_unsent = c->output.size();
        }
    }
    if (oldest != nullptr) {
        close(*oldest);
    } else if (slowest != nullptr) {
        cut_off(*slowest);
    } else {
        return false;
    }
    std::erase_if(connections_, [](const auto& c) { return c->fd < 0; });
    return true;
}

void HttpServer::Loop::read_from(Connection& c) {
    char buffer[kReadChunkBytes];
    const ssize_t got = ::recv(c.fd, buffer, sizeof buffer, MSG_DONTWAIT);
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
        return;
    }
    if (got <= 0) {
        close(c);  // the client closed (or broke) the connection; a half request is dropped
        return;
    }
    if (c.phase == Connection::Phase::kLingering) {
        return;  // dropped: the answer is out, the connection is closing
    }
    c.input.append(buffer, static_cast<std::size_t>(got));
}

void HttpServer::Loop::parse(const std::shared_ptr<Connection>& c, Clock::time_point now) {
    while (c->phase == Connection::Phase::kReading && !c->input.empty()) {
        const bool started = c->parser.started();
        const std::size_t used = c->parser.feed(c->input);
        c->input.erase(0, used);
        if (!started && c->parser.started()) {
            c->request_started = now;
        }
        const auto state = c->parser.state();
        if (state == HttpRequestParser::State::kFailed) {
            answer_now(*c, routes_.refusal(c->parser.failure().status, c->parser.failure().message),
                       false);
            return;
        }
        const bool head_read = state == HttpRequestParser::State::kBody ||
                               state == HttpRequestParser::State::kComplete;
        if (head_read && !c->head_seen) {
            c->head_seen = true;
            if (auto answer = routes_.on_head(c->parser.request())) {
                // A body left unread cannot be skipped reliably: the connection ends.
                const bool keep_open = state == HttpRequestParser::State::kComplete &&
                                       c->parser.request().keep_alive();
                answer_now(*c, *answer, keep_open);
                return;
            }
            if (auto busy = over_buffered_cap()) {
                answer_now(*c, *busy, false);
                return;
            }
            if (c->parser.expects_continue()) {
                std::lock_guard lock(c->mutex);
                append_output(*c, kContinue, budget_);
            }
        }
        if (state == HttpRequestParser::State::kComplete) {
            dispatch(c);
            return;
        }
        if (used == 0) {
            return;
        }
    }
}

void HttpServer::Loop::answer_now(Connection& c, const HttpResponse& response, bool keep_open) {
    c.phase = Connection::Phase::kAnswering;
    c.keep_open = keep_open && ++c.answered < options_.max_requests_per_connection && !stopping_;
    std::lock_guard lock(c.mutex);
    append_output(c, serialize_response(response, c.keep_open), budget_);
    c.answer_done = true;
}

void HttpServer::Loop::dispatch(const std::shared_ptr<Connection>& c) {
    c->phase = Connection::Phase::kAnswering;
    // An HTTP/1.0 connection closes after its answer: a streamed answer is ended by the close.
    const bool http11 = c->parser.request().minor_version >= 1;
    c->keep_open = http11 && c->parser.request().keep_alive() &&
                   ++c->answered < options_.max_requests_per_connection && !stopping_;
    workers_->submit(
        [this, c, request = c->parser.take_request(), keep_open = c->keep_open, http11] {
            ConnectionWriter writer(c, keep_open, http11, budget_, [this] { wake(); });
            // Checked again as it starts: the requests queued behind busy workers were accepted
            // before the answers ahead of them piled up.
            if (auto busy = over_buffered_cap()) {
                writer.send(*busy);
                return;
            }
            try {
                routes_.handle(request, writer);
            } catch (const std::exception& e) {
                if (!writer.streaming() && !writer.finished()) {
                    writer.send(routes_.refusal(500, fmt::format("internal error: {}", e.what())));
                }
            }
            if (writer.streaming() && !writer.finished()) {
                writer.end_stream();
            } else if (!writer.finished()) {
                writer.send(routes_.refusal(500, "internal error: the request got no answer"));
            }
        });
}

void HttpServer::Loop::flush(Connection& c) {
    bool broken = false;
    {
        std::lock_guard lock(c.mutex);
        if (c.output.empty()) {
            return;
        }
        const ssize_t sent =
            ::send(c.fd, c.output.data(), c.output.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
        if (sent > 0) {
            drop_output(c, static_cast<std::size_t>(sent), budget_);
        }
        broken = sent < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR;
    }
    if (broken) {
        close(c);
    }
}

void HttpServer::Loop::after_answer(const std::shared_ptr<Connection>& c, Clock::time_point now) {
    {
        std::lock_guard lock(c->mutex);
        if (c->overflowed) {
            c->answer_done = false;  // check_deadlines closes it: its answer was cut
            return;
        }
        if (!c->answer_done || !c->output.empty()) {
            return;
        }
        c->answer_done = false;
    }
    if (!c->keep_open) {
        ::shutdown(c->fd, SHUT_WR);
        c->phase = Connection::Phase::kLingering;
        c->linger_until = now + kLingerTime;
        return;
    }
    c->parser.reset();
    c->head_seen = false;
    c->phase = Connection::Phase::kReading;
    c->idle_since = now;
    parse(c, now);  // a request that arrived while this one was answered
}

void HttpServer::Loop::check_deadlines(const std::shared_ptr<Connection>& c,
                                       Clock::time_point now) {
    switch (c->phase) {
        case Connection::Phase::kReading:
            if (c->parser.started()) {
                if (now - c->request_started > options_.request_timeout) {
                    answer_now(*c,
                               routes_.refusal(408, fmt::format("the request did not arrive "
                                                                "within {} ms; send it whole",
                                                                options_.request_timeout.count())),
                               false);
                }
            } else if (now - c->idle_since > options_.idle_timeout) {
                close(*c);
            }
            break;
        case Connection::Phase::kAnswering: {
            bool stalled = false;
            {
                std::lock_guard lock(c->mutex);
                stalled = c->overflowed ||
                          (!c->output.empty() && now - c->pending_since > options_.write_timeout);
            }
            if (stalled) {
                cut_off(*c);  // the client did not take its answer in time, or let it pile up
            }
            break;
        }
        case Connection::Phase::kLingering:
            if (now > c->linger_until) {
                close(*c);
            }
            break;
    }
}

int HttpServer::Loop::poll_timeout_ms(Clock::time_point now) const {
    Clock::time_point next = now + std::chrono::seconds(1);
    for (const auto& c : connections_) {
        switch (c->phase) {
            case Connection::Phase::kReading:
                next = std::min(next, c->parser.started()
                                          ? c->request_started + options_.request_timeout
                                          : c->idle_since + options_.idle_timeout);
                break;
            case Connection::Phase::kAnswering: {
                std::lock_guard lock(c->mutex);
                if (!c->output.empty()) {
                    next = std::min(next, c->pending_since + options_.write_timeout);
                }
                break;
            }
            case Connection::Phase::kLingering:
                next = std::min(next, c->linger_until);
                break;
        }
    }
    if (now < accept_paused_until_) {
        next = std::min(next, accept_paused_until_);
    }
    const auto wait = std::chrono::ceil<std::chrono::milliseconds>(next - now).count();
    return static_cast<int>(std::max<std::int64_t>(wait, 0));
}

void HttpServer::Loop::close(Connection& c) {
    if (c.fd < 0) {
        return;
    }
    std::lock_guard lock(c.mutex);
    c.gone = true;
    drop_output(c, c.output.size(), budget_);
    ::close(c.fd);
    c.fd = -1;
}

std::optional<HttpResponse> HttpServer::Loop::over_buffered_cap() const {
    const std::size_t buffered = budget_.buffered.load();
    if (buffered <= options_.max_buffered_bytes) {
        return std::nullopt;
    }
    return routes_.refusal(
        503, fmt::format("the server holds {} MiB of answers its clients have "
                         "not read yet, over its limit of {} MiB; retry in a "
                         "moment",
                         buffered / kMebibyte, options_.max_buffered_bytes / kMebibyte));
}

void HttpServer::Loop::cut_off(Connection& c) {
    if (c.fd >= 0) {
        const linger reset{.l_onoff = 1, .l_linger = 0};
        ::setsockopt(c.fd, SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
    }
    close(c);
}

void HttpServer::Loop::wake() {
    const std::uint64_t one = 1;
    [[maybe_unused]] auto written = ::write(wake_fd_, &one, sizeof one);
}

HttpServer::HttpServer(HttpServerOptions options, HttpRoutes routes)
    : loop_(std::make_unique<Loop>(std::move(options), std::move(routes))) {}

HttpServer::~HttpServer() = default;

Status HttpServer::bind() {
    return loop_->bind();
}

int HttpServer::port() const {
    return loop_->port();
}

bool HttpServer::serve() {
    return loop_->serve();
}

void HttpServer::stop() {
    loop_->stop();
}

}  // namespace causeway::server
