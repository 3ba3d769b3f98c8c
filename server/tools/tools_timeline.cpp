// get_timeline: the trace cut into equal buckets, to see when a problem happens.
#include "analysis/measure/timeline.hpp"
#include "server/tools/tool_runner.hpp"
#include "server/tools/tool_schemas.hpp"
#include "server/tools/tools.hpp"

namespace causeway::server {
namespace {

const json& input_schema() {
    static const json schema = tool_schema("get_timeline.input.json");
    return schema;
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
                           const analysis::TraceFilter& filter) -> Result<ToolAnswer> {
                     return tool_answer(report::TimelineAnswer{
                         target.trace->name(),
                         analysis::compute_timeline(*target.model,
                                                    {.filter = filter, .buckets = buckets})});
                 }},
                arguments, traces, context);
        }};
}

}  // namespace causeway::server
