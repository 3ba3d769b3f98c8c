#include "server/tools/tool_args.hpp"

#include <fmt/format.h>

#include <utility>

namespace causeway::server {

using nlohmann::json;

Result<TraceTarget> resolve_trace(const TraceSet& traces, const json& arguments) {
    std::optional<std::string> name;
    if (arguments.contains("trace")) {
        name = arguments["trace"].get<std::string>();
    }
    // Served from ClickHouse, a node's trace is named "<job>.<node>": job and node say the same.
    if (arguments.contains("job") || arguments.contains("node")) {
        if (!arguments.contains("job") || !arguments.contains("node")) {
            return Error{"arguments job and node go together: pass both (or trace alone)"};
        }
        std::string job_node =
            arguments["job"].get<std::string>() + "." + arguments["node"].get<std::string>();
        if (name && *name != job_node) {
            return Error{fmt::format("trace '{}' and job/node '{}' name different traces: pass one",
                                     *name, job_node)};
        }
        name = std::move(job_node);
    }
    auto trace = traces.find(name);
    if (!trace) {
        return trace.error();
    }
    auto model = trace.value()->model();
    if (!model) {
        return model.error();
    }
    return TraceTarget{trace.value(), std::move(model).value()};
}

Result<analysis::TraceFilter> resolve_filter(const analysis::TraceModel& model,
                                             const json& arguments) {
    analysis::TraceFilter filter;
    if (arguments.contains("pid")) {
        filter.pid = arguments["pid"].get<std::int64_t>();
    }
    if (arguments.contains("op")) {
        filter.op = arguments["op"].get<std::string>();
    }
    if (arguments.contains("window")) {
        auto window =
            analysis::parse_window(arguments["window"].get<std::string>(), model.end_ns());
        if (!window) {
            return Error{fmt::format("argument window: {}", window.error().message)};
        }
        filter.window = window.value();
    }
    if (auto valid = analysis::validate_filter(model, filter); !valid) {
        return valid.error();
    }
    return filter;
}

std::int64_t integer_argument(const json& arguments, const json& input_schema, const char* name) {
    if (arguments.contains(name)) {
        return arguments[name].get<std::int64_t>();
    }
    return input_schema.at("properties").at(name).at("default").get<std::int64_t>();
}

std::string cache_key(const std::string& tool, const json& arguments) {
    return tool + ":" + arguments.dump();
}

}  // namespace causeway::server
