#pragma once
// Drives a Dispatcher the way a transport does, for the dispatcher tests: builds requests,
// collects notifications, and serves the fixture trace with the real Causeway catalog.

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "server/rpc/dispatcher.hpp"
#include "server/tools/trace_set.hpp"
#include "tests/support/temp_dir.hpp"

namespace causeway::testing {

using nlohmann::json;

class DispatcherHarness {
  public:
    // Serves the fixture trace with `catalog` (the Causeway catalog unless given), after
    // `edit_trace` (when given) changed the file, as a traced program or a damaged copy could.
    DispatcherHarness();
    explicit DispatcherHarness(server::Catalog catalog, server::DispatcherLimits limits = {},
                               const std::function<void(const std::string& path)>& edit_trace = {});

    // Sends one message; returns the response or null when none was due.
    json send(const json& message, std::optional<std::string> transport_revision = std::nullopt);
    json request(const std::string& method, json params = json::object(), json id = 1);
    // initialize + notifications/initialized at `revision`.
    json initialize(const std::string& revision = "2025-11-25");
    // A stateless-era request: _meta names 2026-07-28 and the client capabilities.
    json stateless(const std::string& method, json params = json::object());

    std::vector<json> notifications() const;
    server::Dispatcher& dispatcher() { return *dispatcher_; }
    const server::TraceSet& traces() const { return *traces_; }
    const std::string& trace_path() const { return trace_path_; }

  private:
    TempDir dir_;
    std::string trace_path_;
    std::unique_ptr<server::TraceSet> traces_;
    std::unique_ptr<server::Dispatcher> dispatcher_;
    server::Session session_;
    mutable std::mutex mutex_;
    std::vector<json> notifications_;
};

}  // namespace causeway::testing
