#include "server/transport/http_guard.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace causeway::server {
namespace {

std::string lowercase(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

// Splits "name:port", "[::1]:port" or "name" into the name and the port (empty when absent).
std::pair<std::string, std::string> split_host(const std::string& host) {
    if (!host.empty() && host.front() == '[') {
        const auto close = host.find(']');
        if (close == std::string::npos) {
            return {host, ""};
        }
        const std::string rest = host.substr(close + 1);
        return {host.substr(0, close + 1), rest.rfind(':', 0) == 0 ? rest.substr(1) : ""};
    }
    const auto colon = host.rfind(':');
    if (colon == std::string::npos) {
        return {host, ""};
    }
    return {host.substr(0, colon), host.substr(colon + 1)};
}

// Compares without leaking through timing how much of the token matched.
bool same_secret(const std::string& a, const std::string& b) {
    unsigned char difference = a.size() == b.size() ? 0 : 1;
    for (std::size_t i = 0; i < a.size(); ++i) {
        difference |= static_cast<unsigned char>(a[i] ^ b[i % std::max<std::size_t>(b.size(), 1)]);
    }
    return difference == 0;
}

}  // namespace

HttpGuard::HttpGuard(const std::string& bound_host, int port,
                     std::optional<std::string> bearer_token)
    : allowed_names_{"127.0.0.1", "localhost", "[::1]"},
      port_(port),
      bearer_token_(std::move(bearer_token)) {
    const std::string bound = bound_host.find(':') != std::string::npos && bound_host.front() != '['
                                  ? "[" + bound_host + "]"
                                  : bound_host;
    if (std::find(allowed_names_.begin(), allowed_names_.end(), lowercase(bound)) ==
        allowed_names_.end()) {
        allowed_names_.push_back(lowercase(bound));
    }
}

bool HttpGuard::host_allowed(const std::string& host_and_port) const {
    const auto [name, port] = split_host(lowercase(host_and_port));
    if (std::find(allowed_names_.begin(), allowed_names_.end(), name) == allowed_names_.end()) {
        return false;
    }
    return port.empty() || port == std::to_string(port_);
}

std::optional<HttpRefusal> HttpGuard::check_origin(const std::string& host_header,
                                                   const std::string& origin_header) const {
    if (host_header.empty()) {
        return HttpRefusal{400, "missing Host header"};
    }
    if (!host_allowed(host_header)) {
        return HttpRefusal{403, fmt::format("Host '{}' is not this server; connect to "
                                            "http://127.0.0.1:{}/mcp (DNS-rebinding protection)",
                                            host_header.substr(0, 128), port_)};
    }
    if (origin_header.empty()) {
        return std::nullopt;  // not a browser: nothing to rebind
    }
    const auto scheme_end = origin_header.find("://");
    const std::string authority =
        scheme_end == std::string::npos ? "" : origin_header.substr(scheme_end + 3);
    if (authority.empty() || !host_allowed(authority)) {
        return HttpRefusal{403, fmt::format("Origin '{}' may not use this server; only pages "
                                            "served from this machine's loopback address may",
                                            origin_header.substr(0, 128))};
    }
    return std::nullopt;
}

std::optional<HttpRefusal> HttpGuard::check_token(const std::string& authorization_header) const {
    if (!bearer_token_) {
        return std::nullopt;
    }
    constexpr std::string_view kScheme = "Bearer ";
    if (authorization_header.rfind(kScheme, 0) != 0 ||
        !same_secret(authorization_header.substr(kScheme.size()), *bearer_token_)) {
        return HttpRefusal{401,
                           "missing or wrong bearer token: send Authorization: Bearer <the "
                           "token the server was started with (CAUSEWAY_MCP_TOKEN or "
                           "--token-file)>"};
    }
    return std::nullopt;
}

}  // namespace causeway::server
