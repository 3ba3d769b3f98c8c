#pragma once
// The shape of each output that is described once (report/output_shape.hpp explains how): its
// fields in order, with their descriptions. The JSON (write_json) and the tool output schemas
// (causeway-schemas, schemas/tools/*.output.json) are both read from here; to add an output
// field, add it to its struct and to the describe() of that struct below.
//
// Described so far: get_trace_stats (TraceStatsAnswer), get_timeline (TimelineAnswer),
// get_per_process_breakdown (ProcessBreakdownAnswer), run_sql (SqlAnswer) and
// get_fleet_overview (FleetOverview). The other tools' output schemas still come from
// schemas/tools/generate_output_schemas.py.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

#include "analysis/diagnose/causal_chain.hpp"
#include "analysis/diagnose/data_quality.hpp"
#include "analysis/diagnose/process_roles.hpp"
#include "analysis/measure/distribution.hpp"
#include "analysis/measure/process_breakdown.hpp"
#include "analysis/measure/timeline.hpp"
#include "analysis/measure/trace_stats.hpp"
#include "analysis/model/trace_filter.hpp"
#include "analysis/sql/readonly_sql.hpp"
#include "fleet/fleet_overview.hpp"
#include "report/output_shape.hpp"
#include "report/tool_answers.hpp"

namespace causeway::analysis {

// Said of every string that comes from the traced system (the server sanitises them).
inline constexpr std::string_view kUntrustedDescription =
    "Untrusted: from the traced system, sanitised.";

template <class V>
void describe(V& v, const Distribution& d) {
    v.object_description("Exact latency distribution (ns).");
    v.field("count", d.count);
    v.field("total_ns", d.total_ns);
    v.field("mean_ns", d.mean_ns);
    v.field("min_ns", d.min_ns);
    v.field("p50_ns", d.p50_ns);
    v.field("p90_ns", d.p90_ns);
    v.field("p95_ns", d.p95_ns);
    v.field("p99_ns", d.p99_ns);
    v.field("max_ns", d.max_ns);
}

// The worst stall's reason and time are null when no stall was stored.
inline std::optional<std::string> worst_stall_reason(const SchedBreakdown& s) {
    return s.worst_stall_reason.empty() ? std::nullopt
                                        : std::optional<std::string>(s.worst_stall_reason);
}
inline std::optional<std::int64_t> worst_stall_at_ns(const SchedBreakdown& s) {
    return s.worst_stall_reason.empty() ? std::nullopt
                                        : std::optional<std::int64_t>(s.worst_stall_at_ns);
}

template <class V>
void describe(V& v, const SchedBreakdown& s) {
    v.field("oncpu_ns", s.oncpu_ns);
    v.field("preempted_ns", s.preempted_ns);
    v.field("blocked_ns", s.blocked_ns);
    v.field("runq_wait_ns", s.runq_wait_ns);
    v.field("voluntary_switches", s.voluntary_switches);
    v.field("involuntary_switches", s.involuntary_switches);
    v.field("worst_stall_ns", s.worst_stall_ns);
    v.field("worst_stall_reason", worst_stall_reason(s));
    v.field("worst_stall_at_ns", worst_stall_at_ns(s));
}

template <class V>
void describe(V& v, const ThreadRow& t) {
    v.field("tid", t.tid);
    v.field("comm", t.comm, {.description = kUntrustedDescription});
    v.field("role", std::string(role_name(t.role)));
    v.field("cuda_calls", t.cuda_calls);
    v.field("cuda_ns", t.cuda_ns);
    v.field("sched", t.sched);
}

template <class V>
void describe(V& v, const OpBreakdown& op) {
    v.field("op", op.op);
    v.field("dur", op.dur);
}

template <class V>
void describe(V& v, const ProcessRow& p) {
    v.field("pid", p.pid);
    v.field("ppid", p.ppid);
    v.field("comm", p.comm, {.description = kUntrustedDescription});
    v.field("cmdline", p.cmdline, {.description = kUntrustedDescription});
    v.field("role", std::string(role_name(p.role)));
    v.field("in_tree", p.in_tree);
    v.field("start_ns", p.start_ns);
    v.field("exit_ns", p.exit_ns);
    v.field("exit_code", p.exit_code);
    v.field("lifetime_ns", p.lifetime_ns);
    v.field("thread_count", p.thread_count);
    v.field("cuda_calls", p.cuda_calls);
    v.field("cuda_ns", p.cuda_ns);
    v.field("cuda_ops", p.cuda_ops);
    v.field("sched", p.sched);
    v.field("cpu_taken_ns", p.cpu_taken_ns,
            {.description = "A competitor (outside the tree): how long traced threads were "
                            "runnable but not running after it preempted them (ns); only "
                            "competitors that took some CPU are listed. 0 in the tree."});
    v.field("page_allocs", p.page_allocs);
    v.field("page_alloc_bytes", p.page_alloc_bytes);
    v.field("forks", p.forks);
    v.field("threads", p.threads, {.presence = report::Presence::kWhenNotEmpty});
}

template <class V>
void describe(V& v, const TimeWindow& window) {
    v.object_description("Time range covered (ns since the start of recording).");
    v.field("start_ns", window.start_ns);
    v.field("end_ns", window.end_ns);
    v.field("dur_ns", window.dur_ns());
}

template <class V>
void describe(V& v, const TimelineBucket& bucket) {
    v.field("start_ns", bucket.start_ns);
    v.field("cuda_calls", bucket.cuda_calls);
    v.field("cuda_ns", bucket.cuda_ns);
    v.field("cuda_p50_ns", bucket.cuda_p50_ns);
    v.field("cuda_p99_ns", bucket.cuda_p99_ns);
    v.field("cuda_max_ns", bucket.cuda_max_ns);
    v.field("preempted_ns", bucket.preempted_ns);
    v.field("blocked_ns", bucket.blocked_ns);
    v.field("runq_wait_ns", bucket.runq_wait_ns);
    v.field("switches", bucket.switches);
    v.field("cpu_busy_pct", bucket.cpu_busy_pct);
    v.field("page_allocs", bucket.page_allocs);
    v.field("page_alloc_bytes", bucket.page_alloc_bytes);
}

template <class V>
void describe(V& v, const SessionSummary& s) {
    v.field("host", s.host);
    v.field("kernel", s.kernel);
    v.field("cpu_count", s.cpu_count);
    v.field("gpu", s.gpu);
    v.field("command_line", s.command_line, {.description = kUntrustedDescription});
    v.field("source", s.source);
    v.field("start_wall_ns", s.start_wall_ns);
    v.field("offcpu_floor_ns", s.offcpu_floor_ns);
}

template <class V>
void describe(V& v, const OpStats& s) {
    v.field("op", s.op);
    v.field("api", s.api);
    v.field("category", s.category);
    v.field("dur", s.dur);
    v.field("errors", s.errors);
    v.field("common_error", s.common_error);
    v.field("bytes", s.bytes);
    v.field("throughput_bytes_per_s", s.throughput_bytes_per_s);
    v.field("pageable_calls", s.pageable_calls);
    v.field("enclosed_calls", s.enclosed_calls);
    v.field("wall_share", s.wall_share);
}

template <class V>
void describe(V& v, const HostSummary& h) {
    v.field("cpu_count", h.cpu_count);
    v.field("processes_in_tree", h.processes_in_tree);
    v.field("competitor_processes", h.competitor_processes);
    v.field("threads_traced", h.threads_traced);
    v.field("oncpu_ns", h.oncpu_ns);
    v.field("preempted_ns", h.preempted_ns);
    v.field("blocked_ns", h.blocked_ns);
    v.field("runq_wait_ns", h.runq_wait_ns);
    v.field("voluntary_switches", h.voluntary_switches);
    v.field("involuntary_switches", h.involuntary_switches);
    v.field("offcpu_intervals", h.offcpu_intervals);
    v.field("page_allocs", h.page_allocs);
    v.field("page_alloc_bytes", h.page_alloc_bytes);
    v.field("snapshots", h.snapshots);
    v.field("cpu_busy_pct_mean", h.cpu_busy_pct_mean);
    v.field("cpu_busy_pct_max", h.cpu_busy_pct_max);
    v.field("procs_running_mean", h.procs_running_mean);
    v.field("load1_max", h.load1_max);
}

inline constexpr std::array<const char*, 3> kDataQualitySeverities = {"info", "error", "data_loss"};

template <class V>
void describe(V& v, const DataQualityItem& item) {
    v.field("source", item.source);
    v.field("counter", item.counter);
    v.field("value", item.value);
    v.field("severity", item.severity, {.allowed_values = kDataQualitySeverities});
    v.field("description", item.description);
}

template <class V>
void describe(V& v, const DataQualityReport& r) {
    v.object_description("What the trace lost or cannot show.");
    v.field("data_loss", r.data_loss);
    v.field("events_lost", r.events_lost);
    v.field("items", r.items);
}

// The fields of the statistics; `after_ops` describes what an answer adds after the ops (their
// count before the cut), so `causeway stats --json` and get_trace_stats share one list.
template <class V, class AfterOps>
void describe_trace_stats(V& v, const TraceStats& s, AfterOps after_ops) {
    v.field("session", s.session);
    v.field("range", s.range);
    v.field("calls", s.calls);
    v.field("error_calls", s.error_calls);
    v.field("ops", s.ops, {.description = "By total time, largest first; at most `limit`."});
    after_ops();
    v.field("host", s.host);
    v.field("data_quality", s.data_quality);
}

template <class V>
void describe(V& v, const TraceStats& s) {
    describe_trace_stats(v, s, [] {});
}

// An SQL cell: its value as it is, a blob by its size.
inline nlohmann::json value_json(const SqlValue& value) {
    return std::visit(
        [](const auto& v) -> nlohmann::json {
            if constexpr (std::is_same_v<std::decay_t<decltype(v)>, SqlBlob>) {
                return {{"blob_bytes", v.bytes}};
            } else {
                return nlohmann::json(v);
            }
        },
        value);
}
inline nlohmann::ordered_json value_schema(report::ShapeOf<SqlValue> /*shape*/) {
    return {{"description",
             "A value: null, integer, number, string (untrusted, sanitised) or {blob_bytes}."},
            {"type", {"null", "integer", "number", "string", "object"}}};
}

// No object description of its own: run_sql's answer inlines these fields.
template <class V>
void describe(V& v, const SqlResult& r) {
    v.field("columns", r.columns);
    v.field("rows", r.rows, {.description = "At most `limit` rows."});
    v.field("row_count", r.rows.size());
    v.field("truncated", r.truncated);
    v.field("elapsed_ns", r.elapsed_ns);
}

// No object description of its own: get_timeline's answer inlines these fields.
template <class V>
void describe(V& v, const Timeline& timeline) {
    v.field("range", timeline.range);
    v.field("bucket_ns", timeline.bucket_ns);
    v.field("buckets", timeline.buckets, {.description = "Equal buckets in time order."});
}

}  // namespace causeway::analysis

namespace causeway::report {

// The root-cause classes (analysis/diagnose/causal_chain.hpp), in the order the schemas list them.
inline constexpr std::array<const char*, 9> kVerdictClassNames = {
    analysis::verdict_class_name(analysis::VerdictClass::kInputBound),
    analysis::verdict_class_name(analysis::VerdictClass::kCpuContended),
    analysis::verdict_class_name(analysis::VerdictClass::kLockContended),
    analysis::verdict_class_name(analysis::VerdictClass::kGpuBound),
    analysis::verdict_class_name(analysis::VerdictClass::kTransferBound),
    analysis::verdict_class_name(analysis::VerdictClass::kAllocationChurn),
    analysis::verdict_class_name(analysis::VerdictClass::kColdStart),
    analysis::verdict_class_name(analysis::VerdictClass::kHealthy),
    analysis::verdict_class_name(analysis::VerdictClass::kInsufficientData)};

inline constexpr std::string_view kTraceNameDescription = "Name of the trace answered about.";
inline constexpr std::string_view kNoteDescription =
    "Empty, or what was cut from the answer and how to see more.";

template <class V>
void describe(V& v, const TimelineAnswer& answer) {
    v.object_description("Timeline.");
    v.field("trace", answer.trace, {.description = kTraceNameDescription});
    describe(v, answer.timeline);
}

template <class V>
void describe(V& v, const TraceStatsAnswer& answer) {
    v.object_description("Trace statistics.");
    v.field("trace", answer.trace, {.description = kTraceNameDescription});
    analysis::describe_trace_stats(v, answer.stats,
                                   [&] { v.field("ops_total", answer.ops_total); });
    v.field("note", answer.note, {.description = kNoteDescription});
}

template <class V>
void describe(V& v, const SqlAnswer& answer) {
    v.object_description("Query result.");
    v.field("trace", answer.trace, {.description = kTraceNameDescription});
    describe(v, answer.result);
    v.field("offset", answer.offset);
    v.field("next_offset", answer.next_offset);
    v.field("note", answer.note, {.description = kNoteDescription});
}

template <class V>
void describe(V& v, const ProcessBreakdownAnswer& answer) {
    v.object_description("Per-process breakdown.");
    v.field("trace", answer.trace, {.description = kTraceNameDescription});
    v.field("processes", answer.processes,
            {.description = "Training process first, then by CUDA time, then CPU time; threads "
                            "included when pid is given."});
    v.field("total_processes", answer.total_processes);
    v.field("offset", answer.offset);
    v.field("next_offset", answer.next_offset);
    v.field("range", answer.range);
    v.field("note", answer.note, {.description = kNoteDescription});
}

}  // namespace causeway::report

namespace causeway::fleet {

// A rank not given at push (-1) is null in the JSON.
inline std::optional<std::int64_t> known_rank(std::int64_t rank) {
    return rank < 0 ? std::nullopt : std::optional<std::int64_t>(rank);
}

template <class V>
void describe(V& v, const NodeCause& cause) {
    v.object_description("Loop time the node's chains of this class cost (ns).");
    v.field("cause", cause.cause, {.allowed_values = report::kVerdictClassNames});
    v.field("lost_ns", cause.lost_ns);
}

template <class V>
void describe(V& v, const NodeLoop& node) {
    v.object_description("One node: its GPU loop (the busiest thread) and its diagnosis.");
    v.field("node", node.node);
    v.field("rank", known_rank(node.rank));
    v.field("loop_calls", node.loop_calls);
    v.field("loop_span_ns", node.loop_span_ns);
    v.field("loop_calls_per_s", node.loop_calls_per_s);
    v.field("all_calls", node.all_calls);
    v.field("verdict", node.verdict);
    v.field("causes", node.causes, {.description = "Largest loss first."});
}

template <class V>
void describe(V& v, const Straggler& straggler) {
    v.object_description("The slowest node and its largest cause.");
    v.field("node", straggler.node);
    v.field("rank", known_rank(straggler.rank));
    v.field("loop_calls_per_s", straggler.loop_calls_per_s);
    v.field("cause", straggler.cause);
    v.field("cause_lost_ns", straggler.cause_lost_ns);
    v.field("slower_than_median_pct", straggler.slower_than_median_pct);
}

template <class V>
void describe(V& v, const FleetOverview& overview) {
    v.object_description("Every node of a job side by side, summed in ClickHouse.");
    v.field("job", overview.job);
    v.field("nodes", overview.nodes, {.description = "In node name order."});
    v.field("straggler", overview.straggler,
            {.description = "The slowest node and its largest cause; null when no node has CUDA "
                            "calls."});
    v.field("skew_pct", overview.skew_pct);
}

}  // namespace causeway::fleet
