#pragma once
// What one client connection remembers between messages: the revision negotiated by
// `initialize` and the log level set by logging/setLevel. stdio has one session; Streamable HTTP
// has one per Mcp-Session-Id (see http_sessions.hpp).

#include <mutex>
#include <optional>
#include <string>

namespace causeway::server {

// RFC 5424 severities as MCP names them, least severe first.
enum class LogLevel { kDebug, kInfo, kNotice, kWarning, kError, kCritical, kAlert, kEmergency };
std::optional<LogLevel> parse_log_level(const std::string& name);
const char* log_level_name(LogLevel level);

class Session {
  public:
    std::optional<std::string> negotiated_revision() const;
    void set_negotiated_revision(std::string revision);
    LogLevel log_level() const;
    void set_log_level(LogLevel level);

  private:
    mutable std::mutex mutex_;
    std::optional<std::string> negotiated_revision_;
    LogLevel log_level_ = LogLevel::kInfo;
};

}  // namespace causeway::server
