// get_trace_stats: per-op latency distributions, bytes, errors, host summary, data quality.
#include <fmt/format.h>

#include "analysis/measure/trace_stats.hpp"
#include "report/shapes/trace_stats.hpp"
#include "server/tools/tool_runner.hpp"
#include "server/tools/tools.hpp"

namespace causeway::server {
namespace {

struct TraceStatsInput {
    TraceArguments trace{};
    FilterArguments filter{};
    std::int64_t limit = 20;
};

template <class V>
void describe(V& v, TraceStatsInput& in) {
    describe(v, in.trace);
    describe(v, in.filter);
    v.field("limit", in.limit,
            {.description = "Most CUDA operations listed, by total time (default 20, at most 50).",
             .minimum = 1,
             .maximum = 50});
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

}  // namespace

Result<json> trace_summary(const Trace& trace) {
    auto model = trace.model();
    if (!model) {
        return model.error();
    }
    return report::to_json(compute(trace, *model.value(), analysis::TraceFilter{},
                                   static_cast<std::size_t>(TraceStatsInput{}.limit)));
}

void add_trace_stats_tool(ToolRegistry& tools) {
    tools.add_tool<TraceStatsInput, report::TraceStatsAnswer>(
        {.name = "get_trace_stats",
         .title = "Trace statistics",
         .description =
             "Statistics of a trace: session (host, CPUs, GPU, command), time range, every CUDA "
             "runtime/driver operation by total time (count, exact p50/p90/p99/max latency, "
             "bytes, throughput, errors, pageable copies, share of wall time; top `limit`), a "
             "host summary (on-CPU, preempted, blocked and run-queue time of the traced threads, "
             "switches, page allocations, CPU busy) and the data-quality report. Filter with "
             "pid, op and window." +
             std::string(kUntrustedStringsSentence)},
        [](const TraceStatsInput& in, const ToolRequest& request) {
            const auto limit = static_cast<std::size_t>(in.limit);
            return answer_trace_question(
                request, in.trace, in.filter,
                [limit](const TraceTarget& target,
                        const analysis::TraceFilter& filter) -> Result<ToolAnswer> {
                    return tool_answer(compute(*target.trace, *target.model, filter, limit));
                });
        });
}

}  // namespace causeway::server
