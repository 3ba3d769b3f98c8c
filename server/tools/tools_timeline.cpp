// get_timeline: the trace cut into equal buckets, to see when a problem happens.
#include <fmt/format.h>

#include "analysis/human_units.hpp"
#include "analysis/measure/timeline.hpp"
#include "server/analysis_json.hpp"
#include "server/tools/tool_runner.hpp"
#include "server/tools/tool_schemas.hpp"
#include "server/tools/tools.hpp"

namespace causeway::server {
namespace {

using analysis::format_duration;

const json& input_schema() {
    static const json schema = tool_schema("get_timeline.input.json");
    return schema;
}

std::string render(const json& answer) {
    std::string text = fmt::format(
        "Buckets of {} from {}: start | CUDA calls | CUDA time | p99 | preempted | blocked | "
        "run-queue wait | CPU busy | page allocs\n",
        format_duration(answer["bucket_ns"].get<std::int64_t>()),
        format_duration(answer["range"]["start_ns"].get<std::int64_t>()));
    for (const auto& bucket : answer["buckets"]) {
        text += fmt::format("{} | {} | {} | {} | {} | {} | {} | {} | {}\n",
                            format_duration(bucket["start_ns"].get<std::int64_t>()),
                            bucket["cuda_calls"].get<std::int64_t>(),
                            format_duration(bucket["cuda_ns"].get<std::int64_t>()),
                            format_duration(bucket["cuda_p99_ns"].get<std::int64_t>()),
                            format_duration(bucket["preempted_ns"].get<std::int64_t>()),
                            format_duration(bucket["blocked_ns"].get<std::int64_t>()),
                            format_duration(bucket["runq_wait_ns"].get<std::int64_t>()),
                            bucket["cpu_busy_pct"].is_number()
                                ? fmt::format("{:.0f}%", bucket["cpu_busy_pct"].get<double>())
                                : std::string("-"),
                            bucket["page_allocs"].get<std::int64_t>());
    }
    return text;
}

}  // namespace

ToolSpec make_timeline_tool() {
    return ToolSpec{
        "get_timeline",
        "Timeline",
        "The trace (or `window`) cut into `buckets` equal time buckets: CUDA calls, time and "
        "p50/p99/max latency, off-CPU time of the traced threads split into preempted / blocked "
        "/ run-queue wait, switches, CPU busy and page allocations per bucket. Use it to see "
        "when a problem happens, then narrow the window. Filter with pid.",
        input_schema(),
        tool_schema("get_timeline.output.json"),
        [](const json& arguments, const TraceSet& traces, ToolContext& context) {
            const auto buckets =
                static_cast<int>(integer_argument(arguments, input_schema(), "buckets"));
            return answer_trace_question(
                {"get_timeline",
                 [buckets](const TraceTarget& target,
                           const analysis::TraceFilter& filter) -> Result<json> {
                     return to_json(analysis::compute_timeline(
                         *target.model, {.filter = filter, .buckets = buckets}));
                 },
                 render},
                arguments, traces, context);
        }};
}

}  // namespace causeway::server
