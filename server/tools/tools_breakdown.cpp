// get_per_process_breakdown: one row per process (threads too when a pid is given), paged.
#include <fmt/format.h>

#include "analysis/diagnose/process_roles.hpp"
#include "analysis/human_units.hpp"
#include "analysis/measure/process_breakdown.hpp"
#include "server/analysis_json.hpp"
#include "server/tools/tool_runner.hpp"
#include "server/tools/tool_schemas.hpp"
#include "server/tools/tools.hpp"

namespace causeway::server {
namespace {

using analysis::format_duration;

// Threads listed per process when a pid is given (a process may have hundreds).
constexpr std::size_t kMaxThreadsPerProcess = 50;

const json& input_schema() {
    static const json schema = tool_schema("get_per_process_breakdown.input.json");
    return schema;
}

Result<json> compute(const TraceTarget& target, const analysis::TraceFilter& filter,
                     std::size_t offset, std::size_t limit) {
    const analysis::Roles roles = analysis::assign_roles(*target.model);
    const analysis::ProcessBreakdown breakdown = analysis::process_breakdown(
        *target.model, roles, filter, {.include_threads = filter.pid.has_value()});
    const analysis::ResolvedFilter resolved(*target.model, filter);
    json rows = json::array();
    for (std::size_t i = offset; i < breakdown.processes.size() && rows.size() < limit; ++i) {
        json row = to_json(breakdown.processes[i]);
        if (row.contains("threads") && row["threads"].size() > kMaxThreadsPerProcess) {
            row["threads"].erase(row["threads"].begin() + kMaxThreadsPerProcess,
                                 row["threads"].end());
        }
        rows.push_back(std::move(row));
    }
    const std::size_t total = breakdown.processes.size();
    const std::size_t end = offset + rows.size();
    return json{{"processes", std::move(rows)},
                {"total_processes", breakdown.total_processes},
                {"offset", offset},
                {"next_offset", end < total ? json(end) : json(nullptr)},
                {"range", to_json(resolved.window())},
                {"note", end < total ? fmt::format("showing processes {}..{} of {}; pass offset "
                                                   "{} for the next page",
                                                   offset, end, total, end)
                                     : std::string()}};
}

std::string render(const json& answer) {
    std::string text =
        "pid | comm | role | CUDA calls | CUDA time | on CPU | preempted | "
        "blocked | run-queue wait | worst stall | page allocs\n";
    for (const auto& process : answer["processes"]) {
        const json& sched = process["sched"];
        text += fmt::format("{} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {}\n",
                            process["pid"].get<std::int64_t>(), process["comm"].get<std::string>(),
                            process["role"].get<std::string>(),
                            process["cuda_calls"].get<std::int64_t>(),
                            format_duration(process["cuda_ns"].get<std::int64_t>()),
                            format_duration(sched["oncpu_ns"].get<std::int64_t>()),
                            format_duration(sched["preempted_ns"].get<std::int64_t>()),
                            format_duration(sched["blocked_ns"].get<std::int64_t>()),
                            format_duration(sched["runq_wait_ns"].get<std::int64_t>()),
                            format_duration(sched["worst_stall_ns"].get<std::int64_t>()),
                            process["page_allocs"].get<std::int64_t>());
        for (const auto& thread : process.value("threads", json::array())) {
            text += fmt::format(
                "  tid {} {} ({}): {} CUDA calls, preempted {}\n",
                thread["tid"].get<std::int64_t>(), thread["comm"].get<std::string>(),
                thread["role"].get<std::string>(), thread["cuda_calls"].get<std::int64_t>(),
                format_duration(thread["sched"]["preempted_ns"].get<std::int64_t>()));
        }
    }
    if (!answer["note"].get<std::string>().empty()) {
        text += "Note: " + answer["note"].get<std::string>() + "\n";
    }
    return text;
}

}  // namespace

ToolSpec make_process_breakdown_tool() {
    return ToolSpec{
        "get_per_process_breakdown",
        "Per-process breakdown",
        "One row per process of the trace (the training process first, DataLoader workers, "
        "other processes of the tree and outside competitors): role, parent, lifetime, CUDA "
        "calls and time per op with percentiles, on-CPU time, off-CPU time split into "
        "preempted / blocked / run-queue wait, worst stall, switches, page allocations, forks. "
        "Pass pid to also get its threads (at most 50). Paged with limit and offset." +
            std::string(kUntrustedStringsSentence),
        input_schema(),
        tool_schema("get_per_process_breakdown.output.json"),
        [](const json& arguments, const TraceSet& traces, ToolContext& context) {
            const auto limit =
                static_cast<std::size_t>(integer_argument(arguments, input_schema(), "limit"));
            const auto offset =
                static_cast<std::size_t>(integer_argument(arguments, input_schema(), "offset"));
            return answer_trace_question(
                {"get_per_process_breakdown",
                 [limit, offset](const TraceTarget& target, const analysis::TraceFilter& filter) {
                     return compute(target, filter, offset, limit);
                 },
                 render},
                arguments, traces, context);
        }};
}

}  // namespace causeway::server
