#include "server/rpc/request_context.hpp"

#include "server/rpc/json_rpc.hpp"
#include "server/rpc/protocol.hpp"

namespace causeway::server {

RequestContext::RequestContext(const Exchange& exchange, const json& params,
                               std::shared_ptr<const std::atomic<bool>> cancelled,
                               std::chrono::steady_clock::time_point deadline)
    : exchange_(exchange),
      threshold_(exchange.session.log_level()),
      cancelled_(std::move(cancelled)),
      deadline_(deadline) {
    const json meta = params.value("_meta", json::object());
    if (!meta.is_object()) {
        return;
    }
    const json token = meta.value("progressToken", json());
    if (token.is_string() || token.is_number_integer()) {
        progress_token_ = token;
    }
    const json level = meta.value(kMetaLogLevel, json());
    if (level.is_string()) {
        threshold_ = parse_log_level(level.get<std::string>()).value_or(threshold_);
    }
}

void RequestContext::progress(double done, double total, const std::string& message) {
    if (progress_token_.is_null() || !exchange_.notify) {
        return;
    }
    json params{{"progressToken", progress_token_}, {"progress", done}, {"message", message}};
    if (total > 0) {
        params["total"] = total;
    }
    exchange_.notify(make_notification("notifications/progress", std::move(params)));
}

void RequestContext::log(const std::string& level, const std::string& message) {
    const auto parsed = parse_log_level(level);
    if (!parsed || *parsed < threshold_ || !exchange_.notify) {
        return;
    }
    exchange_.notify(make_notification(
        "notifications/message", {{"level", level}, {"logger", "causeway"}, {"data", message}}));
}

}  // namespace causeway::server
