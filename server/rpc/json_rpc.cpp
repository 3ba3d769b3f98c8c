#include "server/rpc/json_rpc.hpp"

#include <fmt/format.h>

#include "server/rpc/sanitize.hpp"

namespace causeway::server {
namespace {

// The deepest bracket nesting in `text`, ignoring brackets inside strings; stops counting once
// past the limit so the scan is linear and cheap.
std::size_t nesting_depth(std::string_view text) {
    std::size_t depth = 0;
    std::size_t deepest = 0;
    bool in_string = false;
    bool escaped = false;
    for (char c : text) {
        if (in_string) {
            if (escaped) {
                escaped = false;
            } else if (c == '\\') {
                escaped = true;
            } else if (c == '"') {
                in_string = false;
            }
            continue;
        }
        if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            deepest = std::max(deepest, ++depth);
            if (deepest > kMaxJsonDepth) {
                return deepest;
            }
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return deepest;
}

}  // namespace

Result<json> parse_message_text(std::string_view text) {
    if (nesting_depth(text) > kMaxJsonDepth) {
        return Error{
            fmt::format("JSON nested deeper than {} levels; MCP messages are shallow, send "
                        "a flatter message",
                        kMaxJsonDepth)};
    }
    json message = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (message.is_discarded()) {
        return Error{"body is not valid JSON; send one JSON-RPC 2.0 message as UTF-8 JSON text"};
    }
    return message;
}

json make_result(const json& id, json result) {
    return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

json make_error(const json& id, const RpcError& error) {
    json body{{"code", error.code}, {"message", sanitize_error_message(error.message)}};
    if (!error.data.is_null()) {
        body["data"] = error.data;
    }
    json response{{"jsonrpc", "2.0"}, {"error", std::move(body)}};
    // An id that could not be read (a parse error, a message that is not a request) is left out,
    // as MCP's schema says since 2025-11-25 (`id?: RequestId`); JSON-RPC's null is no RequestId.
    if (!id.is_null()) {
        response["id"] = id;
    }
    return response;
}

json make_notification(std::string method, json params) {
    return {{"jsonrpc", "2.0"}, {"method", std::move(method)}, {"params", std::move(params)}};
}

bool is_valid_request_id(const json& id) {
    return id.is_string() || id.is_number_integer();
}

}  // namespace causeway::server
