#pragma once
// The one JSON-RPC 2.0 dispatcher both transports share. It frames messages (single or batch),
// picks the protocol revision of each request (see protocol.hpp), routes methods, tracks requests
// in flight so notifications/cancelled of the same session can stop them, and delivers progress and
// log notifications through the transport's sink. Thread-safe: transports call it concurrently.

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include "server/methods/catalog.hpp"
#include "server/rpc/method_call.hpp"
#include "server/rpc/session.hpp"
#include "server/tools/trace_set.hpp"

namespace causeway::server {

// How the transport delivers one incoming message and what it knows about it.
struct Exchange {
    Session& session;
    // Sends a notification to the client while the request runs; empty when the transport cannot
    // (an HTTP request answered with plain JSON): notifications are then dropped.
    std::function<void(const json&)> notify;
    // The MCP-Protocol-Version header of an HTTP request; absent on stdio.
    std::optional<std::string> transport_revision;
};

struct DispatcherLimits {
    // A JSON-RPC batch shares one time limit (eight 2 s queries in one batch once took 16 s):
    // run_sql inside it gets what is left, at most its own 2 s, and a request not started when
    // the limit is spent is answered with error -31001 without running.
    std::chrono::milliseconds batch_time_limit{4000};
    // And bounded answers: one 1 MB POST of 20,000 tools/list was answered with 445 MB held in
    // memory at once. Messages past the first max_batch_messages, and requests after the answers
    // reached batch_answer_bytes, are answered with error -31002 without running. The answers
    // are built as JSON values, several times their text, on each of the HTTP workers at once:
    // 4 MiB of text kept a server under 130 clients that read nothing at 452 MB, 16 MiB at 1 GB.
    std::size_t max_batch_messages = 256;
    std::size_t batch_answer_bytes = std::size_t{4} << 20;
};

class Dispatcher {
  public:
    Dispatcher(Catalog catalog, const TraceSet& traces, ServerIdentity identity,
               DispatcherLimits limits = {});

    // Handles a message or a batch. Returns the response (an array for a batch), or nothing when
    // no response is due: notifications, client responses, cancelled requests.
    std::optional<json> handle(const json& message, const Exchange& exchange);
    // Parses `text` first; a body that is not JSON gets a parse-error response.
    std::optional<json> handle_text(std::string_view text, const Exchange& exchange);

    const Catalog& catalog() const { return catalog_; }

  private:
    using Deadline = std::chrono::steady_clock::time_point;

    std::optional<json> handle_single(const json& message, const Exchange& exchange,
                                      Deadline deadline);
    json handle_request(const json& id, const std::string& method, const json& params,
                        const Exchange& exchange,
                        std::shared_ptr<const std::atomic<bool>> cancelled, Deadline deadline);
    void handle_notification(const std::string& method, const json& params, const Session& session);

    std::shared_ptr<std::atomic<bool>> track(const json& id, const Session& session);
    void untrack(const json& id, const Session& session);

    Catalog catalog_;
    const TraceSet& traces_;
    ServerIdentity identity_;
    DispatcherLimits limits_;

    std::mutex in_flight_mutex_;
    // Cancellation flags of requests being handled, keyed by their session and the id's JSON
    // text: a client cancels only its own requests (a request's session outlives it, so its
    // address is not reused meanwhile). A stateless HTTP request has a session of its own.
    std::map<std::pair<const Session*, std::string>, std::shared_ptr<std::atomic<bool>>> in_flight_;
};

}  // namespace causeway::server
