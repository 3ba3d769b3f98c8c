#include "server/rpc/session.hpp"

#include <array>

namespace causeway::server {
namespace {

constexpr std::array<const char*, 8> kLevelNames{"debug", "info",     "notice", "warning",
                                                 "error", "critical", "alert",  "emergency"};

}  // namespace

std::optional<LogLevel> parse_log_level(const std::string& name) {
    for (std::size_t i = 0; i < kLevelNames.size(); ++i) {
        if (name == kLevelNames[i]) {
            return static_cast<LogLevel>(i);
        }
    }
    return std::nullopt;
}

const char* log_level_name(LogLevel level) {
    return kLevelNames[static_cast<std::size_t>(level)];
}

std::optional<std::string> Session::negotiated_revision() const {
    std::lock_guard lock(mutex_);
    return negotiated_revision_;
}

void Session::set_negotiated_revision(std::string revision) {
    std::lock_guard lock(mutex_);
    negotiated_revision_ = std::move(revision);
}

LogLevel Session::log_level() const {
    std::lock_guard lock(mutex_);
    return log_level_;
}

void Session::set_log_level(LogLevel level) {
    std::lock_guard lock(mutex_);
    log_level_ = level;
}

}  // namespace causeway::server
