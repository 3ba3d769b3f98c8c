// tools/list and tools/call.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <exception>

#include "server/rpc/method_call.hpp"
#include "server/rpc/sanitize.hpp"
#include "server/tools/answer_size.hpp"
#include "server/tools/schema_check.hpp"

namespace causeway::server {
namespace {

json tool_descriptor(const ToolSpec& tool) {
    return {{"name", tool.name},
            {"title", tool.title},
            {"description", tool.description},
            {"inputSchema", json(tool.input_schema)},
            {"outputSchema", json(tool.output_schema)},
            {"annotations",
             {{"title", tool.title},
              {"readOnlyHint", true},
              {"destructiveHint", false},
              {"idempotentHint", true},
              {"openWorldHint", false}}}};
}

json error_result(const std::string& message) {
    return {
        {"content", json::array({{{"type", "text"}, {"text", sanitize_error_message(message)}}})},
        {"isError", true}};
}

const ToolSpec* find_tool(const Catalog& catalog, const std::string& name) {
    for (const auto& tool : catalog.tools) {
        if (tool.name == name) {
            return &tool;
        }
    }
    return nullptr;
}

std::vector<std::string> tool_names(const Catalog& catalog) {
    std::vector<std::string> names;
    for (const auto& tool : catalog.tools) {
        names.push_back(tool.name);
    }
    return names;
}

json run_tool(const ToolSpec& tool, const json& arguments, Call& call) {
    Result<ToolAnswer> answer = Error{""};
    try {
        answer = tool.handler(arguments, call.traces, call.context);
    } catch (const std::exception& e) {
        return error_result(
            fmt::format("internal error in {}: {}. The trace may be damaged; "
                        "try get_trace_stats for its data-quality notes",
                        tool.name, e.what()));
    }
    if (!answer) {
        return error_result(answer.error().message);
    }
    sanitize_strings(answer->structured);
    if (auto size = check_answer_size(tool.name, answer->structured, answer->text); !size) {
        return error_result(size.error().message);
    }
    json result{{"content", json::array({{{"type", "text"}, {"text", answer->text}}})},
                {"structuredContent", std::move(answer->structured)},
                {"isError", false}};
    return result;
}

}  // namespace

MethodResult method_tools_list(Call& call) {
    if (auto error = check_no_cursor(call.params)) {
        return *error;
    }
    json tools = json::array();
    for (const auto& tool : call.catalog.tools) {
        tools.push_back(tool_descriptor(tool));
    }
    return json{{"tools", std::move(tools)}};
}

MethodResult method_tools_call(Call& call) {
    auto name = call.params.find("name");
    if (name == call.params.end() || !name->is_string()) {
        return invalid_params(fmt::format("tools/call needs params.name, one of: {}",
                                          fmt::join(tool_names(call.catalog), ", ")));
    }
    const ToolSpec* tool = find_tool(call.catalog, name->get<std::string>());
    if (tool == nullptr) {
        return invalid_params(fmt::format("unknown tool '{}'; tools: {}",
                                          sanitize_untrusted(name->get<std::string>(), 64),
                                          fmt::join(tool_names(call.catalog), ", ")));
    }
    json arguments = call.params.value("arguments", json::object());
    if (arguments.is_null()) {
        arguments = json::object();
    }
    if (auto problem = schema_violation(json(tool->input_schema), arguments); !problem.empty()) {
        return invalid_params(fmt::format("{}: {}", tool->name, problem));
    }
    return run_tool(*tool, arguments, call);
}

}  // namespace causeway::server
