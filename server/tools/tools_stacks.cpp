// get_stacks: the user call stacks behind the most CUDA time.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <string>
#include <vector>

#include "analysis/human_units.hpp"
#include "analysis/measure/stacks.hpp"
#include "server/analysis_json.hpp"
#include "server/tools/tool_runner.hpp"
#include "server/tools/tool_schemas.hpp"
#include "server/tools/tools.hpp"

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
    auto cut = [depth](json& frames) {
        if (frames.size() > depth) {
            frames.erase(frames.begin() + static_cast<std::ptrdiff_t>(depth), frames.end());
        }
    };
    for (auto& stack : answer["stacks"]) {
        stack["frames_total"] = stack["frames"].size();
        cut(stack["frames"]);
        if (stack.contains("merged_frames")) {
            stack["merged_frames_total"] = stack["merged_frames"].size();
            cut(stack["merged_frames"]);
        }
    }
    answer["note"] = report->stacks_in_trace == 0
                         ? "the recording captured no call stacks"
                         : cut_note(answer["stacks"].size(), report->stacks_in_trace,
                                    "stacks in the trace (most CUDA time first)",
                                    "raise limit or filter with pid/op/window");
    return answer;
}

std::string native_frame_text(const json& frame) {
    return fmt::format("    {} ({})\n",
                       frame["symbol"].is_string()
                           ? frame["symbol"].get<std::string>()
                           : fmt::format("{:#x}", frame["address"].get<std::int64_t>()),
                       frame["module"].is_string() ? frame["module"].get<std::string>() : "?");
}

std::string python_frame_text(const json& frame) {
    std::string where = frame["file"].is_string() ? frame["file"].get<std::string>() : "?";
    if (frame["line"].is_number_integer()) {
        where += fmt::format(":{}", frame["line"].get<std::int64_t>());
    }
    return fmt::format("    {} in {}\n", where,
                       frame["function"].is_string() ? frame["function"].get<std::string>() : "?");
}

// Merged frames, innermost first; runs of library Python frames (torch, the standard library)
// are folded into one line each, so the user's own lines stand out.
std::string merged_frames_text(const json& frames) {
    std::string text;
    for (std::size_t i = 0; i < frames.size();) {
        const json& frame = frames[i];
        if (frame["kind"] == "native") {
            text += native_frame_text(frame);
            ++i;
            continue;
        }
        if (!frame["library"].get<bool>()) {
            text += python_frame_text(frame);
            ++i;
            continue;
        }
        std::size_t end = i;
        std::vector<std::string> packages;
        while (end < frames.size() && frames[end]["kind"] == "python" &&
               frames[end]["library"].get<bool>()) {
            auto package = frames[end]["package"].get<std::string>();
            if (std::find(packages.begin(), packages.end(), package) == packages.end()) {
                packages.push_back(package);
            }
            ++end;
        }
        text += fmt::format("    [{} library frame{}: {}]\n", end - i, end - i == 1 ? "" : "s",
                            fmt::join(packages, ", "));
        i = end;
    }
    return text;
}

std::string render(const json& answer) {
    std::string text = fmt::format("{} CUDA calls in the selection carry a stack.\n",
                                   answer["calls_with_stack"].get<std::int64_t>());
    for (const auto& stack : answer["stacks"]) {
        std::string at = stack.contains("user_line") && stack["user_line"].is_object()
                             ? " at " + stack["user_line"]["text"].get<std::string>()
                             : "";
        text += fmt::format("\nstack {} (pid {}){}: {} calls, {}\n",
                            stack["stack_id"].get<std::int64_t>(), stack["pid"].get<std::int64_t>(),
                            at, stack["calls"].get<std::int64_t>(),
                            analysis::format_duration(stack["total_ns"].get<std::int64_t>()));
        for (const auto& op : stack["ops"]) {
            text += fmt::format("  {} x{} {}\n", op["op"].get<std::string>(),
                                op["calls"].get<std::int64_t>(),
                                analysis::format_duration(op["total_ns"].get<std::int64_t>()));
        }
        if (stack.contains("merged_frames")) {
            text += merged_frames_text(stack["merged_frames"]);
            continue;
        }
        for (const auto& frame : stack["frames"]) {
            text += native_frame_text(frame);
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
        "took the most time, with the ops called from each; top `limit`. Where Python frames "
        "were recorded, `user_line` is the user's own innermost Python line and "
        "`merged_frames` holds native and Python frames in call order (library frames marked, "
        "folded in the text). Empty when the recording captured no stacks. Filter with pid, op "
        "and window." +
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
