// get_timeline: the trace cut into equal buckets, to see when a problem happens.
#include "analysis/measure/timeline.hpp"
#include "report/shapes/timeline.hpp"
#include "server/tools/tool_runner.hpp"
#include "server/tools/tools.hpp"

namespace causeway::server {
namespace {

struct TimelineInput {
    TraceArguments trace{};
    FilterArguments filter{};
    std::int64_t buckets = 40;
};

template <class V>
void describe(V& v, TimelineInput& in) {
    describe(v, in.trace);
    describe(v, in.filter, OpArgument::kNotTaken);
    v.field("buckets", in.buckets,
            {.description = "Time buckets the window is cut into (default 40, at most 200).",
             .minimum = 1,
             .maximum = 200});
}

}  // namespace

void add_timeline_tool(ToolRegistry& tools) {
    tools.add_tool<TimelineInput, report::TimelineAnswer>(
        {.name = "get_timeline",
         .title = "Timeline",
         .description =
             "The trace (or `window`) cut into `buckets` equal time buckets: CUDA calls, time and "
             "p50/p99/max latency, off-CPU time of the traced threads split into preempted / "
             "blocked / run-queue wait, switches, CPU busy and page allocations per bucket. Use "
             "it to see when a problem happens, then narrow the window. Filter with pid."},
        [](const TimelineInput& in, const ToolRequest& request) {
            const auto buckets = static_cast<int>(in.buckets);
            return answer_trace_question(
                request, in.trace, in.filter,
                [buckets](const TraceTarget& target,
                          const analysis::TraceFilter& filter) -> Result<ToolAnswer> {
                    return tool_answer(report::TimelineAnswer{
                        target.trace->name(),
                        analysis::compute_timeline(*target.model,
                                                   {.filter = filter, .buckets = buckets})});
                });
        });
}

}  // namespace causeway::server
