// get_stacks: the user call stacks behind the most CUDA time.
#include <fmt/format.h>

#include "analysis/human_units.hpp"
#include "analysis/stacks.hpp"
#include "server/analysis_json.hpp"
#include "server/tool_runner.hpp"
#include "server/tool_schemas.hpp"
#include "server/tools.hpp"

namespace causeway::server {
namespace {

const json& input_schema() {
    static const json schema = tool_schema("get_stacks.input.json");
    return schema;
}

Result<json> compute(const TraceTarget& target, const analysis::TraceFilter& filter,
                     std::size_t limit, std::size_t depth) {
    std::lock_guard lock(target.trace->connection_mutex());
    auto report = analysis::top_stacks(target.trace->reader(), *target.model, filter, limit);
    if (!report) {
        return report.error();
    }
    json answer = to_json(report.value());
    for (auto& stack : answer["stacks"]) {
        stack["frames_total"] = stack["frames"].size();
        if (stack["frames"].size() > depth) {
            stack["frames"].erase(stack["frames"].begin() + static_cast<std::ptrdiff_t>(depth),
                                  stack["frames"].end());
        }
    }
    answer["note"] = report->stacks_in_trace == 0
                         ? "the recording captured no call stacks"
                         : cut_note(answer["stacks"].size(), report->stacks_in_trace,
                                    "stacks in the trace (most CUDA time first)",
                                    "raise limit or filter with pid/op/window");
    return answer;
}

std::string render(const json& answer) {
    std::string text = fmt::format("{} CUDA calls in the selection carry a stack.\n",
                                   answer["calls_with_stack"].get<std::int64_t>());
    for (const auto& stack : answer["stacks"]) {
        text += fmt::format("\nstack {} (pid {}): {} calls, {}\n",
                            stack["stack_id"].get<std::int64_t>(), stack["pid"].get<std::int64_t>(),
                            stack["calls"].get<std::int64_t>(),
                            analysis::format_duration(stack["total_ns"].get<std::int64_t>()));
        for (const auto& op : stack["ops"]) {
            text += fmt::format("  {} x{} {}\n", op["op"].get<std::string>(),
                                op["calls"].get<std::int64_t>(),
                                analysis::format_duration(op["total_ns"].get<std::int64_t>()));
        }
        for (const auto& frame : stack["frames"]) {
            text +=
                fmt::format("    {} ({})\n",
                            frame["symbol"].is_string()
                                ? frame["symbol"].get<std::string>()
                                : fmt::format("{:#x}", frame["address"].get<std::int64_t>()),
                            frame["module"].is_string() ? frame["module"].get<std::string>() : "?");
        }
    }
    if (!answer["note"].get<std::string>().empty()) {
        text += "Note: " + answer["note"].get<std::string>() + "\n";
    }
    return text;
}

}  // namespace

ToolSpec make_stacks_tool() {
    return ToolSpec{
        "get_stacks",
        "Call stacks behind CUDA time",
        "The user call stacks (innermost frame first, at most `depth` frames) whose CUDA calls "
        "took the most time, with the ops called from each; top `limit`. Empty when the "
        "recording captured no stacks. Filter with pid, op and window." +
            std::string(kUntrustedStringsSentence),
        input_schema(),
        tool_schema("get_stacks.output.json"),
        [](const json& arguments, const TraceSet& traces, ToolContext& context) {
            const auto limit =
                static_cast<std::size_t>(integer_argument(arguments, input_schema(), "limit"));
            const auto depth =
                static_cast<std::size_t>(integer_argument(arguments, input_schema(), "depth"));
            return answer_trace_question(
                {"get_stacks",
                 [limit, depth](const TraceTarget& target, const analysis::TraceFilter& filter) {
                     return compute(target, filter, limit, depth);
                 },
                 render},
                arguments, traces, context);
        }};
}

}  // namespace causeway::server
