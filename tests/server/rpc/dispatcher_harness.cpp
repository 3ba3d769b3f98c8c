#include "tests/server/rpc/dispatcher_harness.hpp"

#include <stdexcept>

#include "server/methods/catalog.hpp"
#include "server/rpc/protocol.hpp"
#include "tests/server/fixture/fixture_trace.hpp"

namespace causeway::testing {

DispatcherHarness::DispatcherHarness() : DispatcherHarness(server::make_causeway_catalog()) {}

DispatcherHarness::DispatcherHarness(server::Catalog catalog, server::DispatcherLimits limits,
                                     const std::function<void(const std::string& path)>& edit_trace)
    : trace_path_(dir_.file("run.db")) {
    if (auto written = write_fixture_trace(trace_path_); !written) {
        throw std::runtime_error(written.error().message);
    }
    if (edit_trace) {
        edit_trace(trace_path_);
    }
    auto traces = server::TraceSet::open({trace_path_});
    if (!traces) {
        throw std::runtime_error(traces.error().message);
    }
    traces_ = std::make_unique<server::TraceSet>(std::move(traces).value());
    dispatcher_ = std::make_unique<server::Dispatcher>(
        std::move(catalog), *traces_, server::ServerIdentity{.version = "test"}, limits);
}

json DispatcherHarness::send(const json& message, std::optional<std::string> transport_revision) {
    const server::Exchange exchange{session_,
                                    [this](const json& note) {
                                        std::lock_guard lock(mutex_);
                                        notifications_.push_back(note);
                                    },
                                    std::move(transport_revision)};
    auto response = dispatcher_->handle(message, exchange);
    return response ? *response : json();
}

json DispatcherHarness::request(const std::string& method, json params, json id) {
    return send({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}});
}

json DispatcherHarness::initialize(const std::string& revision) {
    json response = request("initialize", {{"protocolVersion", revision},
                                           {"capabilities", json::object()},
                                           {"clientInfo", {{"name", "test"}, {"version", "1"}}}});
    send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
    return response;
}

json DispatcherHarness::stateless(const std::string& method, json params) {
    params["_meta"][server::kMetaProtocolVersion] = server::kStatelessRevision;
    params["_meta"][server::kMetaClientCapabilities] = json::object();
    return request(method, params);
}

std::vector<json> DispatcherHarness::notifications() const {
    std::lock_guard lock(mutex_);
    return notifications_;
}

}  // namespace causeway::testing
