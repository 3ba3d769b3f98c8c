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

std::optional<std::pair<std::string, std::shared_ptr<Session>>> HttpSessions::create(
    Clock::time_point now) {
    std::lock_guard lock(mutex_);
    if (refilled_) {
        const std::chrono::duration<double> elapsed = now - *refilled_;
        tokens_ =
            std::min(rate_.burst, tokens_ + std::max(0.0, elapsed.count()) * rate_.per_second);
    }
    refilled_ = std::max(now, refilled_.value_or(now));
    if (tokens_ < 1) {
        return std::nullopt;
    }
    tokens_ -= 1;
    auto session = std::make_shared<Session>();
    std::string id = random_id();
    if (sessions_.size() >= kMaxSessions) {
        evict_one();
    }
    sessions_[id] = Entry{session, ++tick_, false};
    return std::pair(id, session);
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
