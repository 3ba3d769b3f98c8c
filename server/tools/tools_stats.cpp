// get_trace_stats: per-op latency distributions, bytes, errors, host summary, data quality.
#include <fmt/format.h>

#include "analysis/measure/trace_stats.hpp"
#include "server/tools/tool_runner.hpp"
#include "server/tools/tool_schemas.hpp"
#include "server/tools/tools.hpp"

namespace causeway::server {
namespace {

const json& input_schema() {
    static const json schema = tool_schema("get_trace_stats.input.json");
    return schema;
}

report::TraceStatsAnswer compute(const Trace& trace, const analysis::TraceModel& model,
                                 const analysis::TraceFilter& filter, std::size_t limit) {
    report::TraceStatsAnswer answer{.trace = trace.name(),
                                    .stats = analysis::compute_stats(model, filter)};
    answer.ops_total = keep_first(answer.stats.ops, limit);
    answer.note =
        cut_note(answer.stats.ops.size(), answer.ops_total,
                 "CUDA operations (largest total time first)", "raise limit or filter with op");
    return answer;
}

TraceQuestion question(const json& arguments) {
    const auto limit =
        static_cast<std::size_t>(integer_argument(arguments, input_schema(), "limit"));
    return TraceQuestion{
        "get_trace_stats",
        [limit](const TraceTarget& target,
                const analysis::TraceFilter& filter) -> Result<ToolAnswer> {
            return tool_answer(compute(*target.trace, *target.model, filter, limit));
        }};
}

}  // namespace

Result<json> trace_summary(const Trace& trace) {
    auto model = trace.model();
    if (!model) {
        return model.error();
    }
    return report::to_json(compute(
        trace, *model.value(), analysis::TraceFilter{},
        static_cast<std::size_t>(integer_argument(json::object(), input_schema(), "limit"))));
}

ToolSpec make_trace_stats_tool() {
    return ToolSpec{
        "get_trace_stats",
        "Trace statistics",
        "Statistics of a trace: session (host, CPUs, GPU, command), time range, every CUDA "
        "runtime/driver operation by total time (count, exact p50/p90/p99/max latency, bytes, "
        "throughput, errors, pageable copies, share of wall time; top `limit`), a host summary "
        "(on-CPU, preempted, blocked and run-queue time of the traced threads, switches, page "
        "allocations, CPU busy) and the data-quality report. Filter with pid, op and window." +
            std::string(kUntrustedStringsSentence),
        input_schema(),
        tool_schema("get_trace_stats.output.json"),
        [](const json& arguments, const TraceSet& traces, ToolContext& context) {
            return answer_trace_question(question(arguments), arguments, traces, context);
        }};
}

}  // namespace causeway::server
