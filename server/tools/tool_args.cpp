#include "server/tools/tool_args.hpp"

#include <fmt/format.h>

#include <utility>

namespace causeway::server {

using nlohmann::json;

Result<const Trace*> find_trace(const TraceSet& traces, const TraceArguments& arguments) {
    std::optional<std::string> name = arguments.trace;
    // Served from ClickHouse, a node's trace is named "<job>.<node>": job and node say the same.
    if (arguments.job || arguments.node) {
        if (!arguments.job || !arguments.node) {
            return Error{"arguments job and node go together: pass both (or trace alone)"};
        }
        std::string job_node = *arguments.job + "." + *arguments.node;
        if (name && *name != job_node) {
            return Error{fmt::format("trace '{}' and job/node '{}' name different traces: pass one",
                                     *name, job_node)};
        }
        name = std::move(job_node);
    }
    return traces.find(name);
}

Result<TraceTarget> resolve_trace(const TraceSet& traces, const TraceArguments& arguments) {
    auto trace = find_trace(traces, arguments);
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
                                             const FilterArguments& arguments) {
    analysis::TraceFilter filter;
    filter.pid = arguments.pid;
    filter.op = arguments.op;
    if (arguments.window) {
        auto window = analysis::parse_window(*arguments.window, model.end_ns());
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

std::string cache_key(const std::string& tool, const json& arguments) {
    return tool + ":" + arguments.dump();
}

}  // namespace causeway::server
