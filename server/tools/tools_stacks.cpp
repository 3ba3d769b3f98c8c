// get_stacks: the user call stacks behind the most CUDA time.
#include "analysis/measure/stacks.hpp"
#include "server/tools/tool_runner.hpp"
#include "server/tools/tool_schemas.hpp"
#include "server/tools/tools.hpp"

namespace causeway::server {
namespace {

const json& input_schema() {
    static const json schema = tool_schema("get_stacks.input.json");
    return schema;
}

Result<ToolAnswer> compute(const TraceTarget& target, const analysis::TraceFilter& filter,
                           std::size_t limit, std::size_t depth) {
    std::lock_guard lock(target.trace->connection_mutex());
    auto stacks = analysis::top_stacks(target.trace->reader(), *target.model, filter, limit);
    if (!stacks) {
        return stacks.error();
    }
    report::StacksAnswer answer{
        .trace = target.trace->name(), .report = std::move(stacks).value(), .depth = depth};
    answer.note = answer.report.stacks_in_trace == 0
                      ? "the recording captured no call stacks"
                      : cut_note(answer.report.stacks.size(),
                                 static_cast<std::size_t>(answer.report.stacks_in_trace),
                                 "stacks in the trace (most CUDA time first)",
                                 "raise limit or filter with pid/op/window");
    return tool_answer(answer);
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
                 }},
                arguments, traces, context);
        }};
}

}  // namespace causeway::server
