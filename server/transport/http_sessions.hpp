#pragma once
// Sessions of the Streamable HTTP transport (initialize era): `initialize` mints an
// Mcp-Session-Id; requests that carry it share that client's negotiated revision and log level;
// DELETE ends it; an unknown id is 404 so the client starts a new one. A request without an id
// (stateless-era clients, simple scripts) gets a session of its own (http_transport.cpp).

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "server/rpc/session.hpp"

namespace causeway::server {

class HttpSessions {
  public:
    // Most live sessions, so a client that never sends DELETE cannot grow memory without
    // bound. Beyond it one is forgotten (its client gets 404 and re-initialises): the oldest of
    // those never used after initialize, else the one idle longest. A flood of initialize calls
    // then evicts its own sessions, never one a client is using.
    static constexpr std::size_t kMaxSessions = 1024;

    // A new session and its id (128 random bits, hex).
    std::pair<std::string, std::shared_ptr<Session>> create();
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
};

}  // namespace causeway::server
