#pragma once
// Sessions of the Streamable HTTP transport (initialize era): `initialize` mints an
// Mcp-Session-Id; requests that carry it share that client's negotiated revision and log level;
// DELETE ends it; an unknown id is 404 so the client starts a new one. A request without an id
// (stateless-era clients, simple scripts) gets a session of its own (http_transport.cpp).

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "server/rpc/session.hpp"

namespace causeway::server {

// How fast sessions may be created: a token bucket that holds `burst` and refills `per_second`.
struct SessionCreationRate {
    double per_second = 100;
    double burst = 200;
};

class HttpSessions {
  public:
    using Clock = std::chrono::steady_clock;

    explicit HttpSessions(SessionCreationRate rate = {}) : rate_(rate), tokens_(rate.burst) {}

    // Most live sessions, so a client that never sends DELETE cannot grow memory without
    // bound. Beyond it one is forgotten (its client gets 404 and re-initialises): the oldest of
    // those never used after initialize, else the one idle longest. A flood of initialize calls
    // then evicts its own sessions, never one a client is using.
    static constexpr std::size_t kMaxSessions = 1024;

    // A new session and its id (128 random bits, hex), or nothing when sessions are being
    // created faster than the rate allows: a flood is refused before it can crowd the table.
    std::optional<std::pair<std::string, std::shared_ptr<Session>>> create(
        Clock::time_point now = Clock::now());
    // The session of `id`, or null when unknown or ended; marks it used.
    std::shared_ptr<Session> find(const std::string& id);
    bool end(const std::string& id);

  private:
    struct Entry {
        std::shared_ptr<Session> session;
        std::uint64_t last_use = 0;  // tick of its creation or its latest find
        bool used = false;           // found since its creation
    };
    void evict_one();  // with mutex_ held

    std::mutex mutex_;
    std::map<std::string, Entry> sessions_;
    std::uint64_t tick_ = 0;
    SessionCreationRate rate_;
    double tokens_;  // creations allowed now
    std::optional<Clock::time_point> refilled_;
};

}  // namespace causeway::server
