#pragma once
// What every MCP method implementation receives, and what it returns: a result object or a
// JSON-RPC error. The dispatcher owns framing, revisions and cancellation; the methods_*.cpp
// files own one family of methods each.

#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "server/methods/catalog.hpp"
#include "server/rpc/json_rpc.hpp"
#include "server/rpc/protocol.hpp"
#include "server/rpc/session.hpp"
#include "server/tools/trace_set.hpp"

namespace causeway::server {

struct ServerIdentity {
    std::string name = "causeway";
    std::string title = "Causeway: why is my GPU waiting?";
    std::string version;
};

struct Call {
    const json& params;  // always an object
    RequestRevision revision;
    Session& session;
    const Catalog& catalog;
    const TraceSet& traces;
    const ServerIdentity& identity;
    ToolContext& context;  // progress, cancellation and logging for this request
};

using MethodResult = std::variant<json, RpcError>;

inline RpcError invalid_params(std::string message) {
    return RpcError{error_code::kInvalidParams, std::move(message)};
}

// The capabilities announced by initialize and server/discover.
json server_capabilities();

// Lifecycle and utilities (methods_lifecycle.cpp).
MethodResult method_initialize(Call& call);
MethodResult method_discover(Call& call);
MethodResult method_ping(Call& call);
MethodResult method_set_level(Call& call);
// Tools (methods_tools.cpp).
MethodResult method_tools_list(Call& call);
MethodResult method_tools_call(Call& call);
// Prompts and completion (methods_prompts.cpp).
MethodResult method_prompts_list(Call& call);
MethodResult method_prompts_get(Call& call);
MethodResult method_complete(Call& call);
// Resources (methods_resources.cpp).
MethodResult method_resources_list(Call& call);
MethodResult method_resource_templates_list(Call& call);
MethodResult method_resources_read(Call& call);

// Lists are served on one page; a cursor we never issued is refused.
std::optional<RpcError> check_no_cursor(const json& params);

}  // namespace causeway::server
