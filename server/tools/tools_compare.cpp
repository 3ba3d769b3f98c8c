// compare_traces: two recordings before and after a change: throughput, causes gone or new,
// per-op latency percentiles, and which changes are beyond noise.
#include "analysis/compare/trace_comparison.hpp"
#include "report/shapes/comparison.hpp"
#include "server/tools/tool_runner.hpp"
#include "server/tools/tools.hpp"

namespace causeway::server {
namespace {

struct CompareInput {
    std::string before{};
    std::string after{};
    std::optional<std::string> window_before{};
    std::optional<std::string> window_after{};
    std::int64_t limit = 20;
};

template <class V>
void describe(V& v, CompareInput& in) {
    v.field("before", in.before,
            {.description = "Name of the trace recorded before the change (file name without "
                            ".db), as listed by resources/list.",
             .max_length = 200});
    v.field("after", in.after,
            {.description = "Name of the trace recorded after the change.", .max_length = 200});
    v.field("window_before", in.window_before,
            {.description = "Only this time window of the before trace: \"A..B\", \"A..\" or "
                            "\"..B\" since its start, e.g. \"2s..10s\".",
             .max_length = 64});
    v.field("window_after", in.window_after,
            {.description = "Only this time window of the after trace.", .max_length = 64});
    v.field("limit", in.limit,
            {.description = "Most CUDA operations listed, by total time before (default 20, at "
                            "most 50).",
             .minimum = 1,
             .maximum = 50});
}

// One side: its trace and its filter (a time window).
struct Side {
    TraceTarget target;
    analysis::TraceFilter filter;
};

// The side named `trace`, within `window`; errors start with the arguments' names.
Result<Side> resolve_side(const TraceSet& traces, const std::string& trace,
                          const std::optional<std::string>& window, const char* trace_key,
                          const char* window_key) {
    auto target = resolve_trace(traces, TraceArguments{.trace = trace});
    if (!target) {
        return Error{std::string(trace_key) + ": " + target.error().message};
    }
    auto filter = resolve_filter(*target->model, FilterArguments{.window = window});
    if (!filter) {
        return Error{std::string(window_key) + ": " + filter.error().message};
    }
    return Side{std::move(target).value(), std::move(filter).value()};
}

Result<ToolAnswer> answer(const CompareInput& in, const ToolRequest& request) {
    constexpr double kSteps = 3;
    ToolContext& context = request.context;
    context.progress(0, kSteps, "opening the traces");
    auto before =
        resolve_side(request.traces, in.before, in.window_before, "before", "window_before");
    if (!before) {
        return before.error();
    }
    auto after = resolve_side(request.traces, in.after, in.window_after, "after", "window_after");
    if (!after) {
        return after.error();
    }
    context.progress(1, kSteps, "comparing");
    if (context.cancelled()) {
        return Error{"cancelled by the client"};
    }
    const std::string tool(request.tool);
    auto compare = [&]() -> Result<nlohmann::json> {
        analysis::ComparisonOptions options;
        options.before = before->filter;
        options.after = after->filter;
        auto comparison =
            analysis::compare_traces(*before->target.model, *after->target.model, options);
        if (!comparison) {
            return comparison.error();
        }
        const auto limit = static_cast<std::size_t>(in.limit);
        report::ComparisonAnswer compared{.comparison = std::move(comparison).value()};
        compared.ops_total = keep_first(compared.comparison.ops.common, limit);
        compared.note =
            cut_note(compared.comparison.ops.common.size(), compared.ops_total,
                     "CUDA operations (largest total time before first)", "raise limit for more");
        return cacheable_answer(tool, tool_answer(compared));
    };
    // Kept with the after trace's answers where neither trace changes any more (both finished):
    // asking again costs a lookup.
    auto compared = before->target.trace->finished()
                        ? after->target.trace->cached(cache_key(tool, request.arguments), compare)
                        : compare();
    if (!compared) {
        return compared.error();
    }
    context.progress(2, kSteps, "rendering");
    ToolAnswer answer = cached_answer(std::move(compared).value());
    context.progress(kSteps, kSteps, "done");
    return answer;
}

}  // namespace

void add_compare_traces_tool(ToolRegistry& tools) {
    tools.add_tool<CompareInput, report::ComparisonAnswer>(
        {.name = "compare_traces",
         .title = "Compare two traces",
         .description =
             "Compares two recordings of one job, before and after a change (fewer workers, "
             "direct indexing, pinned memory): a one-line headline; the GPU loop's throughput "
             "before and after (steps/s where a step shows in the GPU thread's repeating call "
             "pattern, else CUDA calls/s) with a bootstrap test; each cause's loop time lost "
             "before and after, and which causes went away or appeared; every common CUDA op's "
             "p50/p90/p99 before and after with a Mann-Whitney rank test, Holm-corrected, and an "
             "effect floor (top `limit`). Refuses traces with no CUDA op in common; warns when "
             "the programs or machines differ." +
             std::string(kUntrustedStringsSentence)},
        answer);
}

}  // namespace causeway::server
