#include "server/rpc/dispatcher.hpp"

#include <fmt/format.h>

#include <exception>

#include "server/rpc/request_context.hpp"
#include "server/rpc/sanitize.hpp"

namespace causeway::server {
namespace {

using Method = MethodResult (*)(Call&);

const std::map<std::string, Method, std::less<>>& method_table() {
    static const std::map<std::string, Method, std::less<>> table{
        {"initialize", method_initialize},
        {"ping", method_ping},
        {"server/discover", method_discover},
        {"logging/setLevel", method_set_level},
        {"tools/list", method_tools_list},
        {"tools/call", method_tools_call},
        {"prompts/list", method_prompts_list},
        {"prompts/get", method_prompts_get},
        {"completion/complete", method_complete},
        {"resources/list", method_resources_list},
        {"resources/templates/list", method_resource_templates_list},
        {"resources/read", method_resources_read},
    };
    return table;
}

// The methods whose results are a CacheableResult in the 2026-07-28 schema (ttlMs, cacheScope).
bool is_cacheable(std::string_view method) {
    return method == "server/discover" || method == "tools/list" || method == "prompts/list" ||
           method == "resources/list" || method == "resources/templates/list" ||
           method == "resources/read";
}

// How long a stateless client may reuse a cacheable result, unless the method says otherwise
// (a resource of a trace still being recorded: 0). The catalog is fixed for the life of the
// process, but a restarted server may serve other traces.
constexpr std::int64_t kCacheTtlMs = 300'000;

RpcError invalid_request(std::string message) {
    return RpcError{error_code::kInvalidRequest, std::move(message)};
}

// The revision a request is served under, or error -32022 when it names one we do not speak.
std::variant<RequestRevision, RpcError> request_revision(const std::string& method,
                                                         const json& params,
                                                         const Exchange& exchange) {
    const json meta = params.value("_meta", json::object());
    if (meta.is_object() && meta.contains(kMetaProtocolVersion)) {
        const json& named = meta[kMetaProtocolVersion];
        const std::string requested = named.is_string() ? named.get<std::string>() : named.dump();
        if (!named.is_string() || !is_supported_revision(requested)) {
            return RpcError{error_code::kUnsupportedProtocolVersion,
                            fmt::format("unsupported protocol version {}; supported: {}",
                                        sanitize_untrusted(requested, 64),
                                        fmt::format("{}", fmt::join(supported_revisions(), ", "))),
                            unsupported_revision_data(sanitize_untrusted(requested, 64))};
        }
        return RequestRevision{requested == kStatelessRevision ? Era::kStateless : Era::kInitialize,
                               requested};
    }
    if (method == "server/discover" ||
        (exchange.transport_revision && *exchange.transport_revision == kStatelessRevision)) {
        return RequestRevision{Era::kStateless, std::string(kStatelessRevision)};
    }
    if (exchange.transport_revision) {
        return RequestRevision{Era::kInitialize, *exchange.transport_revision};
    }
    return RequestRevision{Era::kInitialize, exchange.session.negotiated_revision().value_or(
                                                 std::string(kLatestInitializeRevision))};
}

void add_stateless_fields(json& result, std::string_view method) {
    result["resultType"] = "complete";
    if (is_cacheable(method)) {
        if (!result.contains("ttlMs")) {
            result["ttlMs"] = kCacheTtlMs;
        }
        // Traces may be private to whoever holds the bearer token: no shared caches.
        result["cacheScope"] = "private";
    }
}

}  // namespace

Dispatcher::Dispatcher(Catalog catalog, const TraceSet& traces, ServerIdentity identity,
                       DispatcherLimits limits)
    : catalog_(std::move(catalog)),
      traces_(traces),
      identity_(std::move(identity)),
      limits_(limits) {}

std::optional<json> Dispatcher::handle_text(std::string_view text, const Exchange& exchange) {
    auto message = parse_message_text(text);
    if (!message) {
        return make_error(nullptr, RpcError{error_code::kParseError, message.error().message});
    }
    return handle(message.value(), exchange);
}

std::optional<json> Dispatcher::handle(const json& message, const Exchange& exchange) {
    if (!message.is_array()) {
        return handle_single(message, exchange, Deadline::max());
    }
    if (message.empty()) {
        return make_error(nullptr, invalid_request("empty batch; send at least one message"));
    }
    const Deadline deadline = std::chrono::steady_clock::now() + limits_.batch_time_limit;
    json responses = json::array();
    std::size_t answer_bytes = 0;
    for (std::size_t i = 0; i < message.size(); ++i) {
        const json& item = message[i];
        const bool too_many = i >= limits_.max_batch_messages;
        if (too_many || answer_bytes >= limits_.batch_answer_bytes) {
            // Not run. A request gets an error with its id; anything else is dropped.
            if (item.is_object() && item.contains("method") && item.contains("id") &&
                is_valid_request_id(item["id"])) {
                responses.push_back(make_error(
                    item["id"],
                    RpcError{error_code::kBatchTooLarge,
                             too_many ? fmt::format("not run: a batch holds at most {} messages; "
                                                    "send the rest in another",
                                                    limits_.max_batch_messages)
                                      : fmt::format("not run: the answers before it in its "
                                                    "batch reached {} bytes; send it again",
                                                    limits_.batch_answer_bytes)}));
            }
            continue;
        }
        if (auto response = handle_single(item, exchange, deadline)) {
            answer_bytes += response->dump().size();
            responses.push_back(std::move(*response));
        }
    }
    if (responses.empty()) {
        return std::nullopt;
    }
    return responses;
}

std::optional<json> Dispatcher::handle_single(const json& message, const Exchange& exchange,
                                              Deadline deadline) {
    if (!message.is_object()) {
        return make_error(nullptr, invalid_request("a JSON-RPC message must be an object"));
    }
    const bool has_id = message.contains("id");
    const json id = has_id ? message["id"] : json();
    if (message.value("jsonrpc", json()) != "2.0") {
        return make_error(is_valid_request_id(id) ? id : json(),
                          invalid_request("missing \"jsonrpc\": \"2.0\""));
    }
    auto method = message.find("method");
    if (method == message.end()) {
        if (message.contains("result") || message.contains("error")) {
            return std::nullopt;  // a response to a request we never send: nothing to do
        }
        return make_error(is_valid_request_id(id) ? id : json(),
                          invalid_request("message has no \"method\""));
    }
    if (!method->is_string()) {
        return make_error(is_valid_request_id(id) ? id : json(),
                          invalid_request("\"method\" must be a string"));
    }
    const json params = message.value("params", json::object());
    if (!has_id) {
        if (params.is_object()) {
            handle_notification(method->get<std::string>(), params, exchange.session);
        }
        return std::nullopt;
    }
    if (!is_valid_request_id(id)) {
        return make_error(nullptr, invalid_request("\"id\" must be a string or an integer"));
    }
    if (!params.is_object()) {
        return make_error(id, invalid_params("\"params\" must be an object"));
    }
    if (std::chrono::steady_clock::now() >= deadline) {
        return make_error(
            id, RpcError{error_code::kBatchTimeLimitSpent,
                         fmt::format("not run: the batch it came in used up its time limit ({} "
                                     "ms) on the requests before it; send it again on its own",
                                     limits_.batch_time_limit.count())});
    }
    auto cancelled = track(id, exchange.session);
    json response =
        handle_request(id, method->get<std::string>(), params, exchange, cancelled, deadline);
    untrack(id, exchange.session);
    if (cancelled->load()) {
        return std::nullopt;  // the client gave up on it; the spec says not to answer
    }
    return response;
}

json Dispatcher::handle_request(const json& id, const std::string& method, const json& params,
                                const Exchange& exchange,
                                std::shared_ptr<const std::atomic<bool>> cancelled,
                                Deadline deadline) {
    auto revision = request_revision(method, params, exchange);
    if (auto* error = std::get_if<RpcError>(&revision)) {
        return make_error(id, *error);
    }
    auto route = method_table().find(method);
    if (route == method_table().end()) {
        return make_error(
            id, RpcError{error_code::kMethodNotFound,
                         fmt::format("method not found: {}", sanitize_untrusted(method, 64))});
    }
    RequestContext context(exchange, params, std::move(cancelled), deadline);
    Call call{
        params, std::get<RequestRevision>(revision), exchange.session, catalog_, traces_, identity_,
        context};
    MethodResult outcome = json();
    try {
        outcome = route->second(call);
    } catch (const std::exception& e) {
        // Only the shape of params can make a method throw (a field of the wrong JSON type).
        outcome = invalid_params(fmt::format("{}: malformed params ({})", method, e.what()));
    }
    if (auto* error = std::get_if<RpcError>(&outcome)) {
        return make_error(id, *error);
    }
    json result = std::get<json>(std::move(outcome));
    if (call.revision.era == Era::kStateless) {
        add_stateless_fields(result, method);
    }
    return make_result(id, std::move(result));
}

void Dispatcher::handle_notification(const std::string& method, const json& params,
                                     const Session& session) {
    if (method != "notifications/cancelled") {
        return;  // initialized, roots/list_changed, ...: nothing for a read-only server to do
    }
    const json id = params.value("requestId", json());
    std::lock_guard lock(in_flight_mutex_);
    if (auto found = in_flight_.find({&session, id.dump()}); found != in_flight_.end()) {
        found->second->store(true);
    }
}

std::shared_ptr<std::atomic<bool>> Dispatcher::track(const json& id, const Session& session) {
    std::lock_guard lock(in_flight_mutex_);
    auto flag = std::make_shared<std::atomic<bool>>(false);
    in_flight_[{&session, id.dump()}] = flag;
    return flag;
}

void Dispatcher::untrack(const json& id, const Session& session) {
    std::lock_guard lock(in_flight_mutex_);
    in_flight_.erase({&session, id.dump()});
}

}  // namespace causeway::server
