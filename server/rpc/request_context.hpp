#pragma once
// The ToolContext of one request: progress goes to the request's progressToken, cancellation is
// the dispatcher's flag for its id, and log messages pass the session's level (or the level the
// stateless-era request names in its _meta).

#include <atomic>
#include <memory>
#include <optional>

#include "server/methods/catalog.hpp"
#include "server/rpc/dispatcher.hpp"
#include "server/rpc/session.hpp"

namespace causeway::server {

class RequestContext final : public ToolContext {
  public:
    RequestContext(const Exchange& exchange, const json& params,
                   std::shared_ptr<const std::atomic<bool>> cancelled,
                   std::chrono::steady_clock::time_point deadline);

    void progress(double done, double total, const std::string& message) override;
    bool cancelled() const override { return cancelled_->load(); }
    std::chrono::steady_clock::time_point deadline() const override { return deadline_; }
    void log(const std::string& level, const std::string& message) override;

  private:
    const Exchange& exchange_;
    json progress_token_;  // null when the client did not ask for progress
    LogLevel threshold_;
    std::shared_ptr<const std::atomic<bool>> cancelled_;
    std::chrono::steady_clock::time_point deadline_;
};

}  // namespace causeway::server
