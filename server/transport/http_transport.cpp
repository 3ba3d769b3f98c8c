#include "server/transport/http_transport.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "server/rpc/json_rpc.hpp"
#include "server/rpc/protocol.hpp"
#include "server/rpc/sanitize.hpp"
#include "server/transport/http_guard.hpp"
#include "server/transport/http_server.hpp"
#include "server/transport/http_sessions.hpp"

namespace causeway::server {
namespace {

constexpr const char* kJson = "application/json";
constexpr const char* kEventStream = "text/event-stream";
constexpr const char* kSessionHeader = "Mcp-Session-Id";

HttpResponse rpc_error(int status, int code, const std::string& message, json data = nullptr) {
    return HttpResponse{
        status, {}, kJson, to_wire(make_error(nullptr, RpcError{code, message, std::move(data)}))};
}

bool accepts(const std::string& accept, const char* type) {
    return accept.empty() || accept.find(type) != std::string::npos ||
           accept.find("*/*") != std::string::npos;
}

bool is_initialize(const json& message) {
    return message.is_object() && message.value("method", json()) == "initialize";
}

bool has_request(const json& message) {
    if (message.is_array()) {
        return std::any_of(message.begin(), message.end(), has_request);
    }
    return message.is_object() && message.contains("method") && message.contains("id");
}

// Progress can only reach a client through an SSE stream; a request that asks for it gets one.
bool wants_progress(const json& message) {
    if (!message.is_object()) {
        return false;
    }
    const json params = message.value("params", json::object());
    return params.is_object() && params.value("_meta", json::object()).is_object() &&
           params.value("_meta", json::object()).contains("progressToken");
}

std::string sse_event(const json& message) {
    return "event: message\ndata: " + to_wire(message) + "\n\n";
}

}  // namespace

class HttpTransport::Impl {
  public:
    Impl(Dispatcher& dispatcher, const HttpOptions& options)
        : dispatcher_(dispatcher),
          options_(options),
          server_(HttpServerOptions{.host = options.host,
                                    .port = options.port,
                                    .max_body_bytes = options.max_body_bytes,
                                    .request_timeout = options.request_timeout,
                                    .idle_timeout = options.idle_timeout,
                                    .write_timeout = options.write_timeout,
                                    .max_output_bytes_per_connection =
                                        options.max_output_bytes_per_connection,
                                    .max_buffered_bytes = options.max_buffered_bytes,
                                    .max_connections = options.max_connections,
                                    .worker_threads = options.worker_threads},
                  HttpRoutes{[this](const HttpRequest& head) { return on_head(head); },
                             [this](const HttpRequest& request, HttpResponseWriter& writer) {
                                 handle(request, writer);
                             },
                             [](int status, const std::string& message) {
                                 return refusal(status, message);
                             }}) {}

    Status bind() {
        if (auto bound = server_.bind(); !bound) {
            return bound;
        }
        guard_.emplace(options_.host, server_.port(), options_.bearer_token);
        return Ok{};
    }
    int port() const { return server_.port(); }
    bool serve() { return server_.serve(); }
    void stop() { server_.stop(); }

  private:
    // On the server's loop thread: everything that can be decided from the head alone.
    std::optional<HttpResponse> on_head(const HttpRequest& head) {
        if (auto refused = guard_->check_origin(head.header("Host"), head.header("Origin"))) {
            return rpc_error(refused->status, error_code::kInvalidRequest, refused->message);
        }
        if (head.path == "/health") {
            if (head.method != "GET") {
                return not_allowed("GET", "/health answers GET");
            }
            return HttpResponse{200, {}, kJson, R"({"status":"ok"})"};
        }
        if (head.path != "/mcp") {
            return rpc_error(404, error_code::kInvalidRequest,
                             fmt::format("no endpoint {}; POST /mcp or GET /health",
                                         sanitize_untrusted(head.path, 128)));
        }
        if (auto refused = guard_->check_token(head.header("Authorization"))) {
            auto response =
                rpc_error(refused->status, error_code::kInvalidRequest, refused->message);
            response.headers.push_back({"WWW-Authenticate", "Bearer realm=\"causeway\""});
            return response;
        }
        if (head.method == "DELETE") {
            return end_session(head);
        }
        if (head.method != "POST") {
            return not_allowed("POST, DELETE",
                               "this server offers no server-initiated stream: POST JSON-RPC "
                               "messages to /mcp");
        }
        return check_post_head(head);
    }

    static HttpResponse not_allowed(const char* allowed, const std::string& message) {
        auto response = rpc_error(405, error_code::kInvalidRequest, message);
        response.headers.push_back({"Allow", allowed});
        return response;
    }

    HttpResponse end_session(const HttpRequest& head) {
        if (!head.has_header(kSessionHeader)) {
            return rpc_error(400, error_code::kInvalidRequest,
                             "DELETE /mcp ends a session: send its Mcp-Session-Id header");
        }
        if (!sessions_.end(head.header(kSessionHeader))) {
            return rpc_error(404, error_code::kInvalidRequest, "unknown or ended session");
        }
        return HttpResponse{204, {}, "", ""};
    }

    static std::optional<HttpResponse> check_post_head(const HttpRequest& head) {
        const std::string accept = head.header("Accept");
        if (!accepts(accept, kJson) && !accepts(accept, kEventStream)) {
            return rpc_error(406, error_code::kInvalidRequest,
                             "Accept must include application/json or text/event-stream");
        }
        if (head.header("Content-Type").find(kJson) == std::string::npos) {
            return rpc_error(415, error_code::kInvalidRequest,
                             "Content-Type must be application/json");
        }
        if (head.has_header("MCP-Protocol-Version")) {
            const std::string revision = head.header("MCP-Protocol-Version");
            if (!is_supported_revision(revision)) {
                return rpc_error(400, error_code::kUnsupportedProtocolVersion,
                                 fmt::format("unsupported MCP-Protocol-Version '{}'",
                                             sanitize_untrusted(revision, 64)),
                                 unsupported_revision_data(sanitize_untrusted(revision, 64)));
            }
        }
        return std::nullopt;  // read the body
    }

    // On a worker thread: one POST /mcp whose head passed on_head.
    void handle(const HttpRequest& request, HttpResponseWriter& writer) {
        std::optional<std::string> revision;
        if (request.has_header("MCP-Protocol-Version")) {
            revision = request.header("MCP-Protocol-Version");
        }
        auto message = parse_message_text(request.body);
        if (!message) {
            writer.send(rpc_error(400, error_code::kParseError, message.error().message));
            return;
        }
        // Without a session id, a session of its own: what it sets and cancels is its own.
        auto session = std::make_shared<Session>();
        std::vector<HttpHeader> session_header;
        if (is_initialize(message.value())) {
            auto created = sessions_.create();
            if (!created) {
                writer.send(rpc_error(
                    429, error_code::kInvalidRequest,
                    fmt::format("too many new sessions: at most {:g} a second "
                                "({:g} at once); retry in a second",
                                SessionCreationRate{}.per_second, SessionCreationRate{}.burst)));
                return;
            }
            session_header.push_back({kSessionHeader, created->first});
            session = created->second;
        } else if (request.has_header(kSessionHeader)) {
            session = sessions_.find(request.header(kSessionHeader));
            if (!session) {
                writer.send(rpc_error(404, error_code::kInvalidRequest,
                                      "unknown or ended Mcp-Session-Id; send initialize to start "
                                      "a new session"));
                return;
            }
        }
        const std::string accept = request.header("Accept");
        const bool requests = has_request(message.value());
        if (requests && accepts(accept, kEventStream) && !message->is_array() &&
            (!accepts(accept, kJson) || wants_progress(message.value()))) {
            // Run inside the stream so the request's notifications reach the client as it runs.
            session_header.push_back({"Cache-Control", "no-cache"});
            writer.begin_stream(HttpResponse{200, std::move(session_header), kEventStream, ""});
            const auto send = [&writer](const json& out) { writer.stream(sse_event(out)); };
            if (auto response =
                    dispatcher_.handle(message.value(), Exchange{*session, send, revision})) {
                send(*response);
            }
            writer.end_stream();
            return;
        }
        // The same dispatcher path as stdio: whatever it answers is the body.
        auto response = dispatcher_.handle(message.value(), Exchange{*session, {}, revision});
        if (!response) {
            // Notifications and client responses only (or a request the client cancelled).
            writer.send(HttpResponse{202, std::move(session_header), "", ""});
            return;
        }
        // A message holding no request ([], null, [1, 2]) is not accepted: 400, with the JSON-RPC
        // errors stdio would answer. So is a revision this server does not speak (2026-07-28:
        // "For HTTP, the response status code MUST be 400").
        const bool unsupported_revision =
            response->is_object() && response->contains("error") &&
            (*response)["error"].value("code", 0) == error_code::kUnsupportedProtocolVersion;
        writer.send(HttpResponse{requests && !unsupported_revision ? 200 : 400,
                                 std::move(session_header), kJson, to_wire(*response)});
    }

    static HttpResponse refusal(int status, const std::string& message) {
        const std::string hint = status == 413 ? "; MCP messages to this server are small"
                                 : status == 400 || status == 431 || status == 501 || status == 505
                                     ? " (malformed HTTP request)"
                                     : "";
        return rpc_error(status, error_code::kInvalidRequest, message + hint);
    }

    Dispatcher& dispatcher_;
    HttpOptions options_;
    HttpSessions sessions_;
    HttpServer server_;
    std::optional<HttpGuard> guard_;
};

HttpTransport::HttpTransport(Dispatcher& dispatcher, HttpOptions options)
    : impl_(std::make_unique<Impl>(dispatcher, options)) {}

HttpTransport::~HttpTransport() = default;

Status HttpTransport::bind() {
    return impl_->bind();
}

int HttpTransport::port() const {
    return impl_->port();
}

bool HttpTransport::serve() {
    return impl_->serve();
}

void HttpTransport::stop() {
    impl_->stop();
}

}  // namespace causeway::server
