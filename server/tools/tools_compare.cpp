// compare_traces: two recordings before and after a change: throughput, causes gone or new,
// per-op latency percentiles, and which changes are beyond noise.
#include "analysis/compare/trace_comparison.hpp"
#include "server/rpc/sanitize.hpp"
#include "server/tools/answer_size.hpp"
#include "server/tools/tool_runner.hpp"
#include "server/tools/tool_schemas.hpp"
#include "server/tools/tools.hpp"

namespace causeway::server {
namespace {

constexpr const char* kTool = "compare_traces";

const json& input_schema() {
    static const json schema = tool_schema("compare_traces.input.json");
    return schema;
}

// One side: its trace (by the argument `trace_key`) and its filter (the window in `window_key`).
struct Side {
    TraceTarget target;
    analysis::TraceFilter filter;
};

Result<Side> resolve_side(const TraceSet& traces, const json& arguments, const char* trace_key,
                          const char* window_key) {
    auto target = resolve_trace(traces, json{{"trace", arguments.at(trace_key)}});
    if (!target) {
        return Error{std::string(trace_key) + ": " + target.error().message};
    }
    json window = json::object();
    if (arguments.contains(window_key)) {
        window["window"] = arguments.at(window_key);
    }
    auto filter = resolve_filter(*target->model, window);
    if (!filter) {
        return Error{std::string(window_key) + ": " + filter.error().message};
    }
    return Side{std::move(target).value(), std::move(filter).value()};
}

Result<ToolAnswer> answer(const json& arguments, const TraceSet& traces, ToolContext& context) {
    constexpr double kSteps = 3;
    context.progress(0, kSteps, "opening the traces");
    auto before = resolve_side(traces, arguments, "before", "window_before");
    if (!before) {
        return before.error();
    }
    auto after = resolve_side(traces, arguments, "after", "window_after");
    if (!after) {
        return after.error();
    }
    context.progress(1, kSteps, "comparing");
    if (context.cancelled()) {
        return Error{"cancelled by the client"};
    }
    analysis::ComparisonOptions options;
    options.before = before->filter;
    options.after = after->filter;
    auto comparison =
        analysis::compare_traces(*before->target.model, *after->target.model, options);
    if (!comparison) {
        return comparison.error();
    }
    const auto limit =
        static_cast<std::size_t>(integer_argument(arguments, input_schema(), "limit"));
    report::ComparisonAnswer compared{.comparison = std::move(comparison).value()};
    compared.ops_total = keep_first(compared.comparison.ops.common, limit);
    compared.note =
        cut_note(compared.comparison.ops.common.size(), compared.ops_total,
                 "CUDA operations (largest total time before first)", "raise limit for more");
    context.progress(2, kSteps, "rendering");
    ToolAnswer answer = tool_answer(compared);
    sanitize_strings(answer.structured);
    answer.text = std::string(kUntrustedDataNote) + "\n" + answer.text;
    if (auto size = check_answer_size(kTool, answer.structured, answer.text); !size) {
        return size.error();
    }
    context.progress(kSteps, kSteps, "done");
    return answer;
}

}  // namespace

ToolSpec make_compare_traces_tool() {
    return ToolSpec{
        kTool,
        "Compare two traces",
        "Compares two recordings of one job, before and after a change (fewer workers, direct "
        "indexing, pinned memory): a one-line headline; the GPU loop's throughput before and "
        "after (steps/s where a step shows in the GPU thread's repeating call pattern, else CUDA "
        "calls/s) with a bootstrap test; each cause's loop time lost before and after, and which "
        "causes went away or appeared; every common CUDA op's p50/p90/p99 before and after with "
        "a Mann-Whitney rank test, Holm-corrected, and an effect floor (top `limit`). Refuses "
        "traces with no CUDA op in common; warns when the programs or machines differ." +
            std::string(kUntrustedStringsSentence),
        input_schema(),
        tool_schema("compare_traces.output.json"),
        answer};
}

}  // namespace causeway::server
