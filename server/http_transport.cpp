#include "server/http_transport.hpp"

#include <httplib.h>

#include <fmt/format.h>

#include "server/http_guard.hpp"
#include "server/http_sessions.hpp"
#include "server/json_rpc.hpp"
#include "server/protocol.hpp"
#include "server/sanitize.hpp"

namespace causeway::server {
namespace {

constexpr const char* kJson = "application/json";
constexpr const char* kEventStream = "text/event-stream";
constexpr const char* kSessionHeader = "Mcp-Session-Id";

void send_rpc_error(httplib::Response& res, int status, int code, const std::string& message,
                    json data = nullptr) {
    res.status = status;
    res.set_content(to_wire(make_error(nullptr, RpcError{code, message, std::move(data)})), kJson);
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
    Impl(Dispatcher& dispatcher, HttpOptions options)
        : dispatcher_(dispatcher), options_(std::move(options)) {}

    Status bind(int& port) {
        configure();
        port = options_.port == 0
                   ? server_.bind_to_any_port(options_.host)
                   : (server_.bind_to_port(options_.host, options_.port) ? options_.port : -1);
        if (port < 0) {
            return Error{
                fmt::format("cannot listen on {}:{}: the address is in use or not "
                            "local; pick another with --http HOST:PORT",
                            options_.host, options_.port)};
        }
        guard_.emplace(options_.host, port, options_.bearer_token);
        return Ok{};
    }
    bool serve() { return server_.listen_after_bind(); }
    void stop() { server_.stop(); }

  private:
    void configure() {
        server_.new_task_queue = [threads = options_.worker_threads] {
            return new httplib::ThreadPool(threads);
        };
        server_.set_payload_max_length(options_.max_body_bytes);
        server_.set_read_timeout(options_.read_timeout_s, 0);
        server_.set_write_timeout(options_.write_timeout_s, 0);
        server_.set_keep_alive_timeout(5);
        // MCP clients keep one connection and send many requests on it; Debian's compiled
        // httplib listens with a backlog of 5, so reconnecting every 5 requests (its default)
        // makes bursts of new connections overflow the accept queue on a loaded machine.
        server_.set_keep_alive_max_count(1000);
        server_.set_pre_routing_handler([this](const httplib::Request& req,
                                               httplib::Response& res) {
            auto refusal =
                guard_->check_origin(req.get_header_value("Host"), req.get_header_value("Origin"));
            if (!refusal && req.path == "/mcp") {
                refusal = guard_->check_token(req.get_header_value("Authorization"));
                if (refusal) {
                    res.set_header("WWW-Authenticate", "Bearer realm=\"causeway\"");
                }
            }
            if (!refusal) {
                return httplib::Server::HandlerResponse::Unhandled;
            }
            send_rpc_error(res, refusal->status, error_code::kInvalidRequest, refusal->message);
            return httplib::Server::HandlerResponse::Handled;
        });
        server_.Post("/mcp", [this](const httplib::Request& req, httplib::Response& res) {
            post_mcp(req, res);
        });
        server_.Get("/mcp", [](const httplib::Request&, httplib::Response& res) {
            res.set_header("Allow", "POST, DELETE");
            send_rpc_error(res, 405, error_code::kInvalidRequest,
                           "this server offers no server-initiated stream: POST JSON-RPC "
                           "messages to /mcp");
        });
        server_.Delete("/mcp", [this](const httplib::Request& req, httplib::Response& res) {
            if (!req.has_header(kSessionHeader)) {
                send_rpc_error(res, 400, error_code::kInvalidRequest,
                               "DELETE /mcp ends a session: send its Mcp-Session-Id header");
            } else if (!sessions_.end(req.get_header_value(kSessionHeader))) {
                send_rpc_error(res, 404, error_code::kInvalidRequest, "unknown or ended session");
            } else {
                res.status = 204;
            }
        });
        server_.Get("/health", [](const httplib::Request&, httplib::Response& res) {
            res.set_content(R"({"status":"ok"})", kJson);
        });
        server_.set_error_handler(httplib::Server::HandlerWithResponse(
            [](const httplib::Request& req, httplib::Response& res) {
                if (!res.body.empty()) {
                    return httplib::Server::HandlerResponse::Unhandled;
                }
                const std::string message =
                    res.status == 413
                        ? "request body too large; MCP messages to this server are small"
                    : res.status == 404 ? fmt::format("no endpoint {}; POST /mcp or GET /health",
                                                      sanitize_untrusted(req.path, 128))
                                        : fmt::format("HTTP {}", res.status);
                res.set_content(
                    to_wire(make_error(nullptr, RpcError{error_code::kInvalidRequest, message})),
                    kJson);
                return httplib::Server::HandlerResponse::Handled;
            }));
    }

    void post_mcp(const httplib::Request& req, httplib::Response& res) {
        const std::string accept = req.get_header_value("Accept");
        if (!accepts(accept, kJson) && !accepts(accept, kEventStream)) {
            send_rpc_error(res, 406, error_code::kInvalidRequest,
                           "Accept must include application/json or text/event-stream");
            return;
        }
        if (req.get_header_value("Content-Type").find(kJson) == std::string::npos) {
            send_rpc_error(res, 415, error_code::kInvalidRequest,
                           "Content-Type must be application/json");
            return;
        }
        std::optional<std::string> revision;
        if (req.has_header("MCP-Protocol-Version")) {
            revision = req.get_header_value("MCP-Protocol-Version");
            if (!is_supported_revision(*revision)) {
                send_rpc_error(res, 400, error_code::kUnsupportedProtocolVersion,
                               fmt::format("unsupported MCP-Protocol-Version '{}'",
                                           sanitize_untrusted(*revision, 64)),
                               unsupported_revision_data(sanitize_untrusted(*revision, 64)));
                return;
            }
        }
        auto message = parse_message_text(req.body);
        if (!message) {
            send_rpc_error(res, 400, error_code::kParseError, message.error().message);
            return;
        }
        std::shared_ptr<Session> session = sessions_.anonymous();
        if (is_initialize(message.value())) {
            auto [id, created] = sessions_.create();
            res.set_header(kSessionHeader, id);
            session = created;
        } else if (req.has_header(kSessionHeader)) {
            session = sessions_.find(req.get_header_value(kSessionHeader));
            if (!session) {
                send_rpc_error(res, 404, error_code::kInvalidRequest,
                               "unknown or ended Mcp-Session-Id; send initialize to start a new "
                               "session");
                return;
            }
        }
        if (!has_request(message.value())) {
            dispatcher_.handle(message.value(), Exchange{*session, {}, revision});
            res.status = 202;
            return;
        }
        const bool stream = accepts(accept, kEventStream) && !message->is_array() &&
                            (!accepts(accept, kJson) || wants_progress(message.value()));
        if (stream) {
            stream_response(std::move(message).value(), std::move(revision), std::move(session),
                            res);
            return;
        }
        auto response = dispatcher_.handle(message.value(), Exchange{*session, {}, revision});
        if (!response) {
            res.status = 202;  // cancelled by the client while it ran
            return;
        }
        res.set_content(to_wire(*response), kJson);
    }

    // Runs the request inside the stream so its notifications reach the client as it runs.
    void stream_response(json message, std::optional<std::string> revision,
                         std::shared_ptr<Session> session, httplib::Response& res) {
        res.set_header("Cache-Control", "no-cache");
        res.set_chunked_content_provider(kEventStream, [this, message = std::move(message),
                                                        revision = std::move(revision),
                                                        session = std::move(session)](
                                                           std::size_t, httplib::DataSink& sink) {
            const auto send = [&sink](const json& out) {
                const std::string event = sse_event(out);
                sink.write(event.data(), event.size());
            };
            if (auto response = dispatcher_.handle(message, Exchange{*session, send, revision})) {
                send(*response);
            }
            sink.done();
            return true;
        });
    }

    Dispatcher& dispatcher_;
    HttpOptions options_;
    HttpSessions sessions_;
    httplib::Server server_;
    std::optional<HttpGuard> guard_;
};

HttpTransport::HttpTransport(Dispatcher& dispatcher, HttpOptions options)
    : impl_(std::make_unique<Impl>(dispatcher, std::move(options))) {}

HttpTransport::~HttpTransport() = default;

Status HttpTransport::bind() {
    return impl_->bind(port_);
}

bool HttpTransport::serve() {
    return impl_->serve();
}

void HttpTransport::stop() {
    impl_->stop();
}

}  // namespace causeway::server
