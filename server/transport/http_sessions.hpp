#pragma once
// Sessions of the Streamable HTTP transport (initialize era): `initialize` mints an
// Mcp-Session-Id; requests that carry it share that client's negotiated revision and log level;
// DELETE ends it; an unknown id is 404 so the client starts a new one. Requests without an id
// (stateless-era clients, simple scripts) share one anonymous session.

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "server/rpc/session.hpp"

namespace causeway::server {

class HttpSessions {
  public:
    // Most live sessions; beyond it the oldest is forgotten (its client gets 404 and
    // re-initialises), so a client that never sends DELETE cannot grow memory without bound.
    static constexpr std::size_t kMaxSessions = 1024;

    // A new session and its id (128 random bits, hex).
    std::pair<std::string, std::shared_ptr<Session>> create();
    // The session of `id`, or null when unknown or ended.
    std::shared_ptr<Session> find(const std::string& id);
    bool end(const std::string& id);
    std::shared_ptr<Session> anonymous() const { return anonymous_; }

  private:
    std::mutex mutex_;
    std::map<std::string, std::shared_ptr<Session>> sessions_;
    std::map<std::size_t, std::string> creation_order_;  // sequence number -> id
    std::size_t next_sequence_ = 0;
    std::shared_ptr<Session> anonymous_ = std::make_shared<Session>();
};

}  // namespace causeway::server
