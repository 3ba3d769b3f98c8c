#pragma once
// Who may talk to the HTTP transport. A browser page on another site can reach a loopback server
// through DNS rebinding; it then sends its own name in Host and Origin, so both must name this
// server (403 otherwise). A bearer token, when configured, must match.

#include <optional>
#include <string>
#include <vector>

namespace causeway::server {

struct HttpRefusal {
    int status = 0;  // 400, 401 or 403
    std::string message;
};

class HttpGuard {
  public:
    // `bound_host` is the address listened on; loopback names are always accepted for it.
    HttpGuard(const std::string& bound_host, int port, std::optional<std::string> bearer_token);

    // Empty Origin/Authorization mean "header absent".
    std::optional<HttpRefusal> check_origin(const std::string& host_header,
                                            const std::string& origin_header) const;
    std::optional<HttpRefusal> check_token(const std::string& authorization_header) const;

  private:
    bool host_allowed(const std::string& host_and_port) const;

    std::vector<std::string> allowed_names_;
    int port_ = 0;
    std::optional<std::string> bearer_token_;
};

}  // namespace causeway::server
