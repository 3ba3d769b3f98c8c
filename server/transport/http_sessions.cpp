#include "server/transport/http_sessions.hpp"

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

std::pair<std::string, std::shared_ptr<Session>> HttpSessions::create() {
    auto session = std::make_shared<Session>();
    std::string id = random_id();
    std::lock_guard lock(mutex_);
    if (sessions_.size() >= kMaxSessions) {
        auto oldest = creation_order_.begin();
        sessions_.erase(oldest->second);
        creation_order_.erase(oldest);
    }
    sessions_[id] = session;
    creation_order_[next_sequence_++] = id;
    return {id, session};
}

std::shared_ptr<Session> HttpSessions::find(const std::string& id) {
    std::lock_guard lock(mutex_);
    auto found = sessions_.find(id);
    return found == sessions_.end() ? nullptr : found->second;
}

bool HttpSessions::end(const std::string& id) {
    std::lock_guard lock(mutex_);
    if (sessions_.erase(id) == 0) {
        return false;
    }
    for (auto it = creation_order_.begin(); it != creation_order_.end(); ++it) {
        if (it->second == id) {
            creation_order_.erase(it);
            break;
        }
    }
    return true;
}

}  // namespace causeway::server
