#pragma once
// JSON-RPC 2.0 framing: parsing a message body safely and building responses and errors.

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "base/result.hpp"

namespace causeway::server {

using nlohmann::json;

// Deepest nesting of arrays and objects accepted in one message. The parser recurses, so an
// unbounded depth is a stack overflow waiting for a hostile client.
inline constexpr std::size_t kMaxJsonDepth = 64;

// Parses one body (a message or a batch). The error says what is wrong with the text.
Result<json> parse_message_text(std::string_view text);

// A request/notification error carried through the dispatcher: code, message, optional data.
struct RpcError {
    int code = 0;
    std::string message;
    json data = nullptr;
};

json make_result(const json& id, json result);
// `id` null: the request's id is unknown, and the response has none.
json make_error(const json& id, const RpcError& error);
json make_notification(std::string method, json params);

// A request id is a string or an integer (JSON-RPC allows numbers; MCP forbids null).
bool is_valid_request_id(const json& id);

}  // namespace causeway::server
