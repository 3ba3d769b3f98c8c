#include "server/transport/http_sessions.hpp"

#include <algorithm>
#include <array>
#include <random>

#include <fmt/format.h>

namespace causeway::server {
namespace {

std::string random_id() {
    static thread_local std::random_device entropy;
    std::string id;
    for (int i = 0; i < 4; ++i) {
        id += fmt::format("{:08x}", entropy());
    }
    return id;
}

}  // namespace

void HttpSessions::evict_one() {
    // Unused ones first, then the idlest: the smallest (used, last_use).
    auto victim =
        std::min_element(sessions_.begin(), sessions_.end(), [](const auto& a, const auto& b) {
            return std::pair(a.second.used, a.second.last_use) <
                   std::pair(b.second.used, b.second.last_use);
        });
    if (victim != sessions_.end()) {
        sessions_.erase(victim);
    }
}

std::pair<std::string, std::shared_ptr<Session>> HttpSessions::create() {
    auto session = std::make_shared<Session>();
    std::string id = random_id();
    std::lock_guard lock(mutex_);
    if (sessions_.size() >= kMaxSessions) {
        evict_one();
    }
    sessions_[id] = Entry{session, ++tick_, false};
    return {id, session};
}

std::shared_ptr<Session> HttpSessions::find(const std::string& id) {
    std::lock_guard lock(mutex_);
    auto found = sessions_.find(id);
    if (found == sessions_.end()) {
        return nullptr;
    }
    found->second.last_use = ++tick_;
    found->second.used = true;
    return found->second.session;
}

bool HttpSessions::end(const std::string& id) {
    std::lock_guard lock(mutex_);
    return sessions_.erase(id) > 0;
}

}  // namespace causeway::server
