// get_per_process_breakdown: one row per process (threads too when a pid is given), paged.
#include <fmt/format.h>

#include "analysis/diagnose/process_roles.hpp"
#include "analysis/measure/process_breakdown.hpp"
#include "report/shapes/process_breakdown.hpp"
#include "server/tools/tool_runner.hpp"
#include "server/tools/tools.hpp"

namespace causeway::server {
namespace {

// Threads listed per process when a pid is given (a process may have hundreds).
constexpr std::size_t kMaxThreadsPerProcess = 50;

struct ProcessBreakdownInput {
    TraceArguments trace{};
    FilterArguments filter{};
    std::int64_t limit = 20;
    std::int64_t offset = 0;
};

template <class V>
void describe(V& v, ProcessBreakdownInput& in) {
    describe(v, in.trace);
    describe(v, in.filter, OpArgument::kNotTaken);
    v.field("limit", in.limit,
            {.description = "Most processes listed (default 20, at most 100).",
             .minimum = 1,
             .maximum = 100});
    v.field("offset", in.offset,
            {.description = kOffsetDescription, .minimum = 0, .maximum = 10'000'000});
}

report::ProcessBreakdownAnswer compute(const TraceTarget& target,
                                       const analysis::TraceFilter& filter, std::size_t offset,
                                       std::size_t limit) {
    const analysis::Roles roles = analysis::assign_roles(*target.model);
    analysis::ProcessBreakdown breakdown = analysis::process_breakdown(
        *target.model, roles, filter, {.include_threads = filter.pid.has_value()});
    const analysis::ResolvedFilter resolved(*target.model, filter);
    report::ProcessBreakdownAnswer answer{.trace = target.trace->name(),
                                          .total_processes = breakdown.total_processes,
                                          .offset = offset,
                                          .range = resolved.window()};
    const std::size_t total = breakdown.processes.size();
    for (std::size_t i = offset; i < total && answer.processes.size() < limit; ++i) {
        answer.processes.push_back(std::move(breakdown.processes[i]));
        keep_first(answer.processes.back().threads, kMaxThreadsPerProcess);
    }
    const std::size_t end = offset + answer.processes.size();
    if (end < total) {
        answer.next_offset = end;
        answer.note =
            fmt::format("showing processes {}..{} of {}; pass offset {} for the next page", offset,
                        end, total, end);
    }
    return answer;
}

}  // namespace

void add_process_breakdown_tool(ToolRegistry& tools) {
    tools.add_tool<ProcessBreakdownInput, report::ProcessBreakdownAnswer>(
        {.name = "get_per_process_breakdown",
         .title = "Per-process breakdown",
         .description =
             "One row per process of the trace (the training process first, DataLoader workers, "
             "other processes of the tree and outside competitors): role, parent, lifetime, CUDA "
             "calls and time per op with percentiles, on-CPU time, off-CPU time split into "
             "preempted / blocked / run-queue wait, worst stall, switches, page allocations, "
             "forks. Pass pid to also get its threads (at most 50). Paged with limit and "
             "offset." +
             std::string(kUntrustedStringsSentence)},
        [](const ProcessBreakdownInput& in, const ToolRequest& request) {
            const auto limit = static_cast<std::size_t>(in.limit);
            const auto offset = static_cast<std::size_t>(in.offset);
            return answer_trace_question(
                request, in.trace, in.filter,
                [limit, offset](const TraceTarget& target,
                                const analysis::TraceFilter& filter) -> Result<ToolAnswer> {
                    return tool_answer(compute(target, filter, offset, limit));
                });
        });
}

}  // namespace causeway::server
