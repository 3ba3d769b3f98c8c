// get_stacks: the user call stacks behind the most CUDA time.
#include "analysis/measure/stacks.hpp"
#include "report/shapes/stacks.hpp"
#include "server/tools/tool_runner.hpp"
#include "server/tools/tools.hpp"

namespace causeway::server {
namespace {

struct StacksInput {
    TraceArguments trace{};
    FilterArguments filter{};
    std::int64_t limit = 10;
    std::int64_t depth = 16;
};

template <class V>
void describe(V& v, StacksInput& in) {
    describe(v, in.trace);
    describe(v, in.filter);
    v.field("limit", in.limit,
            {.description = "Most call stacks listed, by total time in the calls made from them "
                            "(default 10, at most 50).",
             .minimum = 1,
             .maximum = 50});
    v.field("depth", in.depth,
            {.description = "Most frames shown per stack, innermost first (default 16, at most "
                            "64).",
             .minimum = 1,
             .maximum = 64});
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

void add_stacks_tool(ToolRegistry& tools) {
    tools.add_tool<StacksInput, report::StacksAnswer>(
        {.name = "get_stacks",
         .title = "Call stacks behind CUDA time",
         .description =
             "The user call stacks (innermost frame first, at most `depth` frames) whose CUDA "
             "calls took the most time, with the ops called from each; top `limit`. Where Python "
             "frames were recorded, `user_line` is the user's own innermost Python line and "
             "`merged_frames` holds native and Python frames in call order (library frames "
             "marked, folded in the text). Empty when the recording captured no stacks. Filter "
             "with pid, op and window." +
             std::string(kUntrustedStringsSentence)},
        [](const StacksInput& in, const ToolRequest& request) {
            const auto limit = static_cast<std::size_t>(in.limit);
            const auto depth = static_cast<std::size_t>(in.depth);
            return answer_trace_question(
                request, in.trace, in.filter,
                [limit, depth](const TraceTarget& target, const analysis::TraceFilter& filter) {
                    return compute(target, filter, limit, depth);
                });
        });
}

}  // namespace causeway::server
