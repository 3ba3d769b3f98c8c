#pragma once
// The shape of get_trace_stats (TraceStatsAnswer) and `causeway stats --json` (TraceStats).
// Each struct's describe() names its fields in order, with their descriptions: the JSON
// (write_json) and the tool output schemas (causeway-schemas) are both read from it
// (report/output_shape.hpp explains how).

#include <array>

#include "analysis/diagnose/data_quality.hpp"
#include "analysis/measure/trace_stats.hpp"
#include "report/shapes/shared.hpp"
#include "report/tool_answers.hpp"

namespace causeway::analysis {

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

}  // namespace causeway::analysis

namespace causeway::report {

template <class V>
void describe(V& v, const TraceStatsAnswer& answer) {
    v.object_description("Trace statistics.");
    v.field("trace", answer.trace, {.description = kTraceNameDescription});
    analysis::describe_trace_stats(v, answer.stats,
                                   [&] { v.field("ops_total", answer.ops_total); });
    v.field("note", answer.note, {.description = kNoteDescription});
}

}  // namespace causeway::report
