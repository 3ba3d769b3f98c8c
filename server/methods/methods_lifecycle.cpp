// initialize, server/discover, ping, logging/setLevel.
#include <fmt/format.h>

#include "server/rpc/method_call.hpp"

namespace causeway::server {

json server_capabilities() {
    return {{"tools", {{"listChanged", false}}},
            {"prompts", {{"listChanged", false}}},
            {"resources", {{"subscribe", false}, {"listChanged", false}}},
            {"logging", json::object()},
            {"completions", json::object()}};
}

namespace {

json server_info(const ServerIdentity& identity) {
    return {{"name", identity.name}, {"title", identity.title}, {"version", identity.version}};
}

// The catalog's instructions, and the files of the served folders that are not served.
std::string instructions(const Call& call) {
    const std::string skipped = call.traces.skipped_note();
    return skipped.empty() ? call.catalog.instructions
                           : call.catalog.instructions + " Traces " + skipped + ".";
}

}  // namespace

MethodResult method_initialize(Call& call) {
    auto requested = call.params.find("protocolVersion");
    if (requested == call.params.end() || !requested->is_string()) {
        return invalid_params(
            "initialize needs params.protocolVersion, a string such as \"2025-11-25\"");
    }
    std::string revision = negotiate_initialize_revision(requested->get<std::string>());
    call.session.set_negotiated_revision(revision);
    return json{{"protocolVersion", revision},
                {"capabilities", server_capabilities()},
                {"serverInfo", server_info(call.identity)},
                {"instructions", instructions(call)}};
}

MethodResult method_discover(Call& call) {
    return json{{"supportedVersions", supported_revisions()},
                {"capabilities", server_capabilities()},
                {"serverInfo", server_info(call.identity)},
                {"instructions", instructions(call)},
                {"_meta", {{kMetaServerInfo, server_info(call.identity)}}}};
}

MethodResult method_ping(Call&) {
    return json::object();
}

MethodResult method_set_level(Call& call) {
    auto level = call.params.find("level");
    std::optional<LogLevel> parsed;
    if (level != call.params.end() && level->is_string()) {
        parsed = parse_log_level(level->get<std::string>());
    }
    if (!parsed) {
        return invalid_params(
            "logging/setLevel needs params.level, one of debug, info, notice, warning, error, "
            "critical, alert, emergency");
    }
    call.session.set_log_level(*parsed);
    return json::object();
}

std::optional<RpcError> check_no_cursor(const json& params) {
    auto cursor = params.find("cursor");
    if (cursor == params.end() || cursor->is_null()) {
        return std::nullopt;
    }
    return invalid_params(fmt::format(
        "unknown cursor {}: this list fits on one page, call it again without params.cursor",
        cursor->dump(-1, ' ', false, json::error_handler_t::replace)));
}

}  // namespace causeway::server
