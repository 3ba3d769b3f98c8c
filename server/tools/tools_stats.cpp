// get_trace_stats: per-op latency distributions, bytes, errors, host summary, data quality.
#include <fmt/format.h>

#include "analysis/human_units.hpp"
#include "analysis/measure/trace_stats.hpp"
#include "server/analysis_json.hpp"
#include "server/tools/tool_runner.hpp"
#include "server/tools/tool_schemas.hpp"
#include "server/tools/tools.hpp"

namespace causeway::server {
namespace {

using analysis::format_bytes;
using analysis::format_duration;
using analysis::format_percent;

const json& input_schema() {
    static const json schema = tool_schema("get_trace_stats.input.json");
    return schema;
}

Result<json> compute(const TraceTarget& target, const analysis::TraceFilter& filter,
                     std::size_t limit) {
    json stats = to_json(analysis::compute_stats(*target.model, filter));
    cut_list(stats, "ops", limit, "CUDA operations (largest total time first)",
             "raise limit or filter with op");
    return stats;
}

std::string render(const json& stats) {
    const json& session = stats["session"];
    const json& host = stats["host"];
    std::string text = fmt::format(
        "Trace {}: {} on {} ({} CPUs, GPU {}), {} covered, {} CUDA calls ({} failed).\n",
        stats["trace"].get<std::string>(),
        session["command_line"].is_string() ? session["command_line"].get<std::string>()
                                            : "unknown command",
        session["host"].get<std::string>(), session["cpu_count"].get<std::int64_t>(),
        session["gpu"].is_string() ? session["gpu"].get<std::string>() : "none recorded",
        format_duration(stats["range"]["dur_ns"].get<std::int64_t>()),
        stats["calls"].get<std::int64_t>(), stats["error_calls"].get<std::int64_t>());
    text += "op | calls | total | p50 | p99 | max | wall share | bytes\n";
    for (const auto& op : stats["ops"]) {
        const json& dur = op["dur"];
        text += fmt::format("{} | {} | {} | {} | {} | {} | {} | {}\n", op["op"].get<std::string>(),
                            dur["count"].get<std::int64_t>(),
                            format_duration(dur["total_ns"].get<std::int64_t>()),
                            format_duration(dur["p50_ns"].get<std::int64_t>()),
                            format_duration(dur["p99_ns"].get<std::int64_t>()),
                            format_duration(dur["max_ns"].get<std::int64_t>()),
                            format_percent(op["wall_share"].get<double>()),
                            format_bytes(op["bytes"].get<double>()));
    }
    text += fmt::format(
        "Host: {} traced threads; on CPU {}, preempted {}, blocked {}, run-queue wait {}; {} "
        "involuntary switches; {} page allocations ({}); CPU busy {:.0f}% mean.\n",
        host["threads_traced"].get<std::int64_t>(),
        format_duration(host["oncpu_ns"].get<std::int64_t>()),
        format_duration(host["preempted_ns"].get<std::int64_t>()),
        format_duration(host["blocked_ns"].get<std::int64_t>()),
        format_duration(host["runq_wait_ns"].get<std::int64_t>()),
        host["involuntary_switches"].get<std::int64_t>(), host["page_allocs"].get<std::int64_t>(),
        format_bytes(host["page_alloc_bytes"].get<double>()),
        host["cpu_busy_pct_mean"].get<double>());
    const json& quality = stats["data_quality"];
    text += quality["data_loss"].get<bool>()
                ? fmt::format("Data quality: {} events lost; conclusions may be incomplete.\n",
                              quality["events_lost"].get<std::int64_t>())
                : "Data quality: no loss recorded.\n";
    if (!stats["note"].get<std::string>().empty()) {
        text += "Note: " + stats["note"].get<std::string>() + "\n";
    }
    return text;
}

TraceQuestion question(const json& arguments) {
    const auto limit =
        static_cast<std::size_t>(integer_argument(arguments, input_schema(), "limit"));
    return TraceQuestion{"get_trace_stats",
                         [limit](const TraceTarget& target, const analysis::TraceFilter& filter) {
                             return compute(target, filter, limit);
                         },
                         render};
}

}  // namespace

Result<json> trace_summary(const Trace& trace) {
    auto model = trace.model();
    if (!model) {
        return model.error();
    }
    auto stats = compute(
        TraceTarget{&trace, model.value()}, analysis::TraceFilter{},
        static_cast<std::size_t>(integer_argument(json::object(), input_schema(), "limit")));
    if (stats) {
        stats.value()["trace"] = trace.name();
    }
    return stats;
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
