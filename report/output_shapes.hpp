#pragma once
// The shape of each output that is described once (report/output_shape.hpp explains how): its
// fields in order, with their descriptions. The JSON (write_json) and the tool output schemas
// (causeway-schemas, schemas/tools/*.output.json) are both read from here; to add an output
// field, add it to its struct and to the describe() of that struct below.
//
// Described here: get_trace_stats (TraceStatsAnswer), get_timeline (TimelineAnswer),
// get_per_process_breakdown (ProcessBreakdownAnswer), run_sql (SqlAnswer), get_fleet_overview
// (FleetOverview), get_stacks (StacksAnswer), compare_traces (ComparisonAnswer; TraceComparison
// for `causeway compare --json`) and get_causal_chains (CausalChainsAnswer; Diagnosis for
// `causeway explain --json`) and get_check (ReadinessAnswer; `causeway check --json`).

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "analysis/diagnose/causal_chain.hpp"
#include "analysis/diagnose/data_quality.hpp"
#include "analysis/diagnose/diagnosis.hpp"
#include "analysis/diagnose/process_roles.hpp"
#include "analysis/diagnose/recommendation.hpp"
#include "analysis/diagnose/verdict.hpp"
#include "analysis/measure/distribution.hpp"
#include "analysis/measure/process_breakdown.hpp"
#include "analysis/measure/python_lines.hpp"
#include "analysis/measure/stack_merge.hpp"
#include "analysis/measure/stacks.hpp"
#include "analysis/measure/timeline.hpp"
#include "analysis/measure/trace_stats.hpp"
#include "analysis/model/trace_filter.hpp"
#include "analysis/sql/readonly_sql.hpp"
#include "collector/discovery.hpp"
#include "collector/readiness.hpp"
#include "fleet/fleet_overview.hpp"
#include "report/chain_text.hpp"
#include "report/comparison_headline.hpp"
#include "report/comparison_words.hpp"
#include "report/output_shape.hpp"
#include "report/ranks_text.hpp"
#include "report/tool_answers.hpp"
#include "report/verdict_text.hpp"

namespace causeway::report {

// The values of each enum a schema lists, in enum order: the root-cause classes
// (analysis/diagnose/causal_chain.hpp), a chain's actor kinds (cause_kind.hpp, Actor::kind), the
// recommendation kinds (recommendation.hpp) and the confidences.
inline const auto kVerdictClassNames =
    enum_names<analysis::VerdictClass::kLast>(analysis::verdict_class_name);
inline const auto kActorKindNames =
    enum_names<analysis::CauseKind::kLast>(analysis::cause_kind_name);
inline const auto kRecommendationKindNames =
    enum_names<analysis::RecommendationKind::kLast>(analysis::recommendation_kind_name);
inline const auto kConfidenceNames =
    enum_names<analysis::Confidence::kLast>(analysis::confidence_name);
inline const auto kStragglerBasisNames =
    enum_names<fleet::StragglerBasis::kLast>(fleet::straggler_basis_name);

// A chain's evidence, effects and the verdict as their JSON gives them: the fact and its words
// (report/evidence_text.hpp, chain_text.hpp, verdict_text.hpp), which quote the chain or the
// diagnosis around them.
struct EvidenceShown {
    analysis::Evidence evidence{};
    std::string text{};
};
struct EffectShown {
    analysis::Effect effect{};
    std::string text{};
};
struct VerdictShown {
    analysis::Verdict verdict{};
    std::string summary{};
    std::vector<EvidenceShown> numbers{};
};

std::vector<EvidenceShown> evidence_shown(const analysis::CausalChain& chain);
std::vector<EffectShown> effects_shown(const analysis::CausalChain& chain);
VerdictShown verdict_shown(const analysis::Diagnosis& diagnosis);
// Where the chain's Python code was, in one line; absent without gpu_thread_line or actor_line.
std::optional<std::string> code_shown(const analysis::CausalChain& chain);

// A chain's recommendation as its JSON gives it: the kind (stable, for programs), the text for a
// person and the numbers it rests on, by name.
struct RecommendationShown {
    analysis::RecommendationKind kind{};
    std::string text{};
    std::map<std::string, Number> params{};
};

std::vector<RecommendationShown> recommendations_shown(const analysis::CausalChain& chain);

// A compared recording's GPU-driving threads in words (gpu_thread_text, comparison_words.hpp).
std::vector<std::string> gpu_thread_texts(const analysis::ComparedRecording& recording);

}  // namespace causeway::report

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
void describe(V& v, const ContainerIdentity& c) {
    v.object_description(
        "The container and Kubernetes pod its cgroup path names (docker, containerd, cri-o and "
        "podman groups; the kubelet's pod groups), under either cgroup driver. Untrusted: from "
        "the traced system.");
    v.field("runtime", c.runtime,
            {.description = "docker, containerd, cri-o or podman; empty when the path does not "
                            "say"});
    v.field("container_id", c.container_id,
            {.description = "64 hex digits; empty when the path names a pod only"});
    v.field("pod_uid", c.pod_uid, {.description = "Kubernetes pod UID; empty outside a pod"});
    v.field("qos_class", c.qos_class,
            {.description = "Guaranteed, Burstable or BestEffort; empty outside a pod"});
}

// Its cgroup path and what it names, for processes, competitors and actors.
inline constexpr std::string_view kCgroupDescription =
    "Its latest cgroup path (sampled by the recorder; null when not sampled, or in traces "
    "before schema 4). Untrusted: from the traced system, sanitised.";
inline constexpr std::string_view kContainerDescription =
    "The container and pod its cgroup names; null when it names none.";

template <class V>
void describe(V& v, const ProcessRow& p) {
    v.field("pid", p.pid);
    v.field("ppid", p.ppid);
    v.field("comm", p.comm, {.description = kUntrustedDescription});
    v.field("cmdline", p.cmdline, {.description = kUntrustedDescription});
    v.field("role", std::string(role_name(p.role)));
    v.field("in_tree", p.in_tree);
    v.field("cgroup", p.cgroup, {.description = kCgroupDescription});
    v.field("container", p.container, {.description = kContainerDescription});
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

template <class V>
void describe(V& v, const StackOp& op) {
    v.field("op", op.op);
    v.field("calls", op.calls);
    v.field("total_ns", op.total_ns);
    v.field("max_ns", op.max_ns);
}

template <class V>
void describe(V& v, const StackFrame& f) {
    v.field("address", f.address);
    v.field("module", f.module, {.description = kUntrustedDescription});
    v.field("symbol", f.symbol, {.description = kUntrustedDescription});
    v.field("offset", f.offset);
}

// A Python frame of a stack; `package` is what a library frame is folded under ('torch',
// 'stdlib'), empty for the user's own code.
template <class V>
void describe_python_frame(V& v, const PythonFrame& f, const std::string& package) {
    v.field("file", f.file, {.description = kUntrustedDescription});
    v.field("function", f.function, {.description = kUntrustedDescription});
    v.field("line", f.line);
    v.field("library", !package.empty(),
            {.description =
                 "A frame of installed packages or the standard library (folded in the text)."});
    v.field("package", package,
            {.description = "What a library frame is folded under ('torch', 'stdlib'); empty for "
                            "the user's own code."});
}

inline constexpr std::array<const char*, 2> kFrameKinds = {"native", "python"};

template <class V>
void describe(V& v, const MergedFrame& f) {
    v.object_description(
        "A native frame (address, module, symbol, offset) or a Python frame (file, function, "
        "line, library, package).");
    v.fields_when(!f.python, [&] { describe(v, f.native); });
    v.fields_when(f.python, [&] { describe_python_frame(v, f.code, f.package); });
    v.field("kind", std::string(f.python ? "python" : "native"), {.allowed_values = kFrameKinds});
}

// No object description of its own: each place a line appears says what it is.
template <class V>
void describe(V& v, const CodeLine& l) {
    v.field("file", l.file,
            {.description = "co_filename as the interpreter names it. Untrusted: from the traced "
                            "system, sanitised."});
    v.field("function", l.function,
            {.description = "co_qualname; empty when unknown. Untrusted: from the traced system, "
                            "sanitised."});
    v.field("line", l.line, {.description = "1-based; 0 when unknown."});
    v.field("library", l.library,
            {.description = "true when no frame of the user's own code was recorded: the "
                            "innermost library frame."});
    v.field("stacks", l.stacks, {.description = "Recorded stacks at this line."});
    v.field("stacks_total", l.stacks_total,
            {.description = "Recorded stacks with Python frames weighed."});
    v.field("share", l.share, {.description = "Share of the weighed time (ns) of those stacks."});
    v.field("text", describe_line(l),
            {.description = "'train.py:57 in train_step'. Untrusted: from the traced system, "
                            "sanitised."});
}

template <class V>
void describe(V& v, const Competitor& c) {
    v.field("comm", c.comm, {.description = kUntrustedDescription});
    v.field("pid", c.pid);
    v.field("tid", c.tid);
    v.field("in_tree", c.in_tree);
    v.field("role", std::string(role_name(c.role)));
    v.field("cgroup", c.cgroup, {.description = kCgroupDescription});
    v.field("container", c.container, {.description = kContainerDescription});
    v.field("preempted_ns", c.preempted_ns);
    v.field("share", c.share);
}

template <class V>
void describe(V& v, const Actor& a) {
    v.object_description(
        "Who or what the chain blames: one cause (pid: the process it belongs to or, for "
        "DataLoader workers, the process they feed; tid: when one thread).");
    v.field("kind", std::string(cause_kind_name(a.kind)),
            {.allowed_values = report::kActorKindNames});
    v.field("name", a.name, {.description = kUntrustedDescription});
    v.field("pid", a.pid);
    v.field("tid", a.tid);
    v.field("pids", a.pids);
    v.field("in_tree", a.in_tree);
    v.field("container", a.container,
            {.description = "The container and pod of every one of its processes, where they "
                            "share one; null otherwise."});
}

template <class V>
void describe(V& v, const RankTiming& r) {
    v.field("rank", r.rank);
    v.field("pid", r.pid);
    v.field("collectives", r.collectives, {.description = "It issued on the communicator."});
    v.field("arrived_last", r.arrived_last,
            {.description = "Collectives every rank reached where it arrived (enqueued) last."});
    v.field("late_ns", r.late_ns,
            {.description = "Summed where it arrived last: after the next-to-last rank (ns)."});
    v.field("waited_ns", r.waited_ns,
            {.description = "Summed over those collectives: the last rank's arrival less its own "
                            "(ns)."});
}

template <class V>
void describe(V& v, const AbsentRank& a) {
    v.field("rank", a.rank);
    v.field("pid", a.pid);
    v.field("last_call", a.last_call,
            {.description = "The last CUDA or NCCL call its process made; null without one."});
    v.field("last_call_ns", a.last_call_ns, {.description = "Its entry (ns since the start)."});
    v.field("stuck_at", a.stuck_at,
            {.description = "Present where Python frames were recorded: the Python line of that "
                            "call's thread when last seen (its last switch-out after the call, "
                            "else the call's own).",
             .presence = report::Presence::kWhenPresent});
}

template <class V>
void describe(V& v, const MissingCollective& m) {
    v.field("number", m.number, {.description = "1-based, in the communicator's order."});
    v.field("absent", m.absent, {.description = "The ranks that never issued it."});
}

template <class V>
void describe(V& v, const CommunicatorRanks& c) {
    v.field("nranks", c.nranks);
    v.field("aligned", c.aligned, {.description = "Collectives every rank reached."});
    v.field("latest",
            c.latest() != nullptr ? std::optional<std::int64_t>(c.latest()->rank) : std::nullopt,
            {.description = "The rank that arrived last most often; null without collectives."});
    v.field("text", report::latest_rank_text(c));
    v.field("missing", c.missing,
            {.description = "A collective some ranks issued and others had not by the end of the "
                            "recording (a hang, or the recording ended first); null otherwise."});
    v.field("missing_text", report::missing_collective_text(c));
    v.field("ranks", c.ranks);
}

template <class V>
void describe(V& v, const AdvisedFixPrediction& f) {
    v.object_description("The advised fix's own predicted speed-up.");
    v.field("fix", std::string(analysis::recommendation_kind_name(f.fix)),
            {.description = "The recommendation it is for (its kind).",
             .allowed_values = report::kRecommendationKindNames});
    v.field("predicted_speedup", f.speedup,
            {.description = "How much faster the loop runs with the fix."});
    v.field("predicted_speedup_low", f.speedup_low);
    v.field("predicted_speedup_high", f.speedup_high);
}

template <class V>
void describe(V& v, const CriticalPathCost& c) {
    v.object_description(
        "What removing the cause saves, from the device's queue reconstructed from the calls: "
        "the time the device waited because of it (host delays while its queue was empty; "
        "delay hidden behind queued work costs nothing). For GPU-BOUND, what a device twice as "
        "fast would save.");
    v.field("of", std::string(c.device_twice_as_fast ? "device_twice_as_fast" : "removing_cause"),
            {.allowed_values = report::kCriticalPathOfNames});
    v.field("cost_ns", c.cost_ns, {.description = "Loop time saved (ns)."});
    v.field("share", c.share, {.description = "cost_ns over loop_ns."});
    v.field("loop_ns", c.loop_ns,
            {.description = "The GPU-driving threads' loops, from their first drain of the "
                            "device's queue to their last (ns)."});
    v.field("predicted_speedup", c.speedup,
            {.description = "loop_ns / (loop_ns - cost_ns): how much faster the loop runs."});
    v.field("predicted_speedup_low", c.speedup_low,
            {.description = "With every period whose device work is only bounded at its most "
                            "work (a faster device: at none)."});
    v.field("predicted_speedup_high", c.speedup_high,
            {.description = "With those periods at none (a faster device: at their most)."});
    v.field("advised_fix", c.advised_fix,
            {.description = "What the advised fix gains where it removes only part of the cause "
                            "and the trace holds what it keeps: copies from pinned memory still "
                            "move their bytes (at what the GPU's PCIe link carries), more "
                            "workers load only so much faster. Absent otherwise."});
    v.field("upper_bound", c.upper_bound,
            {.description = "True when the advised fix removes only part of the cause and the "
                            "trace does not hold what it keeps (pinned copies still DMA, at a "
                            "rate unknown without the GPU's PCIe link): the speed-up is the most "
                            "that fix can give."});
    v.field("text", report::critical_path_text(c));
}

// HIGH, MEDIUM, LOW: as the schema has always listed them.

template <class V>
void describe(V& v, const CausalChain& c) {
    v.field("root_cause_class", std::string(verdict_class_name(c.root_cause_class)),
            {.allowed_values = report::kVerdictClassNames});
    v.field("actor", c.actor);
    v.field("effects", report::effects_shown(c));
    v.field("symptom", report::symptom_text(c));
    v.field("op", c.op);
    v.field("evidence", report::evidence_shown(c));
    v.field("competitors", c.competitors);
    v.field("root_cause", report::root_cause_text(c));
    v.field("recommendations", report::recommendations_shown(c));
    v.field("confidence", std::string(confidence_name(c.confidence)),
            {.allowed_values = report::kConfidenceNames});
    v.field("time_lost_ns", c.time_lost_ns);
    v.field("time_lost_share", c.time_lost_share);
    v.field("critical_path", c.critical_path,
            {.description = "Present where the trace holds a drain of the device's queue (a "
                            "synchronisation): what removing this cause saves, and the loop's "
                            "predicted speed-up. Chains are ranked by it.",
             .presence = report::Presence::kWhenPresent});
    // Only where Python frames were recorded, so answers about other traces keep their shape.
    v.field("gpu_thread_line", c.gpu_thread_line,
            {.description = "Present where Python frames were recorded: the GPU-driving threads' "
                            "own Python line during this chain's time (its calls, or their "
                            "switch-outs blamed on its actor).",
             .presence = report::Presence::kWhenPresent});
    v.field("actor_line", c.actor_line,
            {.description = "Present where Python frames were recorded: the actor's own Python "
                            "line when it gave up a CPU it had taken from a GPU-driving thread.",
             .presence = report::Presence::kWhenPresent});
    v.field("code", report::code_shown(c),
            {.description = "Present with gpu_thread_line or actor_line: one line for a person "
                            "('waits at train.py:57 in train_step; workers spend CPU at "
                            "dataset.py:31 in __getitem__'). Untrusted: from the traced system, "
                            "sanitised.",
             .presence = report::Presence::kWhenPresent});
}

template <class V>
void describe(V& v, const GpuThread& t) {
    v.field("pid", t.pid);
    v.field("tid", t.tid);
    v.field("comm", t.comm, {.description = kUntrustedDescription});
}

// The fields of a diagnosis; `after_chains` describes what an answer adds after the chains
// (their count before the cut), `after_gpu_threads` what explain --json adds after the GPU
// threads (the process table), so the two share one list.
template <class V, class AfterChains, class AfterGpuThreads>
void describe_diagnosis(V& v, const Diagnosis& d, AfterChains after_chains,
                        AfterGpuThreads after_gpu_threads) {
    v.field("verdict", report::verdict_shown(d));
    v.field("chains", d.chains,
            {.description = "One per root cause, largest predicted gain (critical_path.cost_ns) "
                            "first; at most `limit`."});
    after_chains();
    v.field("gpu_threads", d.gpu_threads);
    after_gpu_threads();
    v.field("ranks", d.ranks,
            {.description = "NCCL communicators whose ranks are all in the trace (one host), their "
                            "collectives aligned by order; empty without them."});
    v.field("data_quality", d.data_quality);
    v.field("evidence_limits", report::evidence_limit_texts(d.evidence_limits),
            {.description = "What this trace cannot prove."});
    v.field("session", d.session);
    v.field("range", d.range);
}

template <class V>
void describe(V& v, const Diagnosis& d) {
    describe_diagnosis(
        v, d, [] {},
        [&] {
            v.field("processes", d.processes.processes);
            v.field("total_processes", d.processes.total_processes);
        });
}

template <class V>
void describe(V& v, const RankTest& t) {
    v.object_description(
        "Mann-Whitney U over the calls (normal approximation, tie-corrected); tested false with "
        "fewer than 8 calls a side.");
    v.field("tested", t.tested);
    v.field("before_values", t.before_values);
    v.field("after_values", t.after_values);
    v.field("z", t.z);
    v.field("p_value", t.p_value);
    v.field("after_larger_probability", t.after_larger_probability);
}

template <class V>
void describe(V& v, const ShiftTest& s) {
    v.field("rank_test", s.rank);
    v.field("adjusted_p_value", s.adjusted_p_value,
            {.description = "Holm-adjusted across the ops of this comparison."});
    v.field("significant", s.significant,
            {.description = "Adjusted p below alpha, whatever the size of the change."});
    v.field("beyond_noise", s.beyond_noise,
            {.description = "Adjusted p below alpha AND the median moved by the effect floor (see "
                            "significance_method)."});
}

template <class V>
void describe(V& v, const RateBootstrap& b) {
    v.object_description(
        "Bootstrap of the ratio of mean step intervals (before / after: above 1 is faster "
        "after).");
    v.field("tested", b.tested);
    v.field("before_values", b.before_values);
    v.field("after_values", b.after_values);
    v.field("rate_ratio", b.rate_ratio);
    v.field("ci_low", b.ci_low);
    v.field("ci_high", b.ci_high);
    v.field("p_value", b.p_value);
}

inline constexpr std::array<const char*, 2> kLoopUnitNames = {"steps", "calls"};

// The op that marks a step is null when calls are counted.
inline std::optional<std::string> marker_op(const LoopThroughput& l) {
    return l.marker_op.empty() ? std::nullopt : std::optional<std::string>(l.marker_op);
}

template <class V>
void describe(V& v, const LoopThroughput& l) {
    v.object_description(
        "The GPU loop's throughput: steps (marked by marker_op) or CUDA calls of the GPU-driving "
        "threads, per second.");
    v.field("unit", std::string(loop_unit_name(l.unit)), {.allowed_values = kLoopUnitNames});
    v.field("marker_op", marker_op(l));
    v.field("calls_per_step", l.calls_per_step);
    v.field("count", l.count);
    v.field("span_ns", l.span_ns);
    v.field("per_s", l.per_s);
}

template <class V>
void describe(V& v, const ComparedRecording& r) {
    v.field("path", r.path);
    v.field("program", r.program, {.description = kUntrustedDescription});
    v.field("verdict", r.verdict, {.allowed_values = report::kVerdictClassNames});
    v.field("range", r.range);
    v.field("gpu_threads", report::gpu_thread_texts(r),
            {.item_description = kUntrustedDescription});
    v.field("loop", r.loop);
}

inline constexpr std::array<const char*, 3> kCauseStatusNames = {"gone", "new", "persists"};

template <class V>
void describe(V& v, const CauseChange& c) {
    v.object_description(
        "A cause's loop time lost before and after; null where it was no chain (below 10% of the "
        "loop).");
    v.field(
        "key", c.key,
        {.description = "class/actor kind/actor name: how a cause is matched across recordings."});
    v.field("root_cause_class", c.root_cause_class, {.allowed_values = report::kVerdictClassNames});
    v.field("actor_kind", c.actor_kind, {.allowed_values = report::kActorKindNames});
    v.field("actor_name", c.actor_name, {.description = kUntrustedDescription});
    v.field("status", std::string(cause_status_name(c.status)),
            {.allowed_values = kCauseStatusNames});
    v.field("before_ns", c.before_ns);
    v.field("after_ns", c.after_ns);
    v.field("before_share", c.before_share);
    v.field("after_share", c.after_share);
    v.field("predicted_before", c.predicted_before,
            {.description = "Present where the first recording's chain had one: what it "
                            "predicted removing the cause would gain (its critical_path), to set "
                            "beside throughput_ratio.",
             .presence = report::Presence::kWhenPresent});
}

template <class V>
void describe(V& v, const OpLatencyChange& o) {
    v.field("op", o.op);
    v.field("api", o.api);
    v.field("category", o.category);
    v.field("before", o.before);
    v.field("after", o.after);
    v.field("shift", o.shift);
}

// The fields of a comparison; `after_ops` describes what an answer adds after the ops (their
// count before the cut), so `causeway compare --json` and compare_traces share one list.
template <class V, class AfterOps>
void describe_comparison(V& v, const TraceComparison& c, AfterOps after_ops) {
    v.field("headline", report::comparison_headline(c));
    v.field("before", c.before);
    v.field("after", c.after);
    v.field("throughput_method", report::throughput_method_text(c));
    v.field("throughput_ratio", c.throughput_ratio);
    v.field("throughput_test", c.throughput_test);
    v.field("throughput_beyond_noise", c.throughput_beyond_noise);
    v.field("causes", c.causes, {.description = "Causes before first, then new ones."});
    v.field("ops", c.ops.common,
            {.description = "CUDA ops called in both, by total time before; at most `limit`."});
    after_ops();
    v.field("ops_only_before", c.ops.only_before);
    v.field("ops_only_after", c.ops.only_after);
    v.field("significance_method", report::significance_method_text(c.options));
    v.field("warnings", report::difference_texts(c),
            {.description = "What differs besides the change (program, CPUs, host, lost events)."});
}

template <class V>
void describe(V& v, const TraceComparison& c) {
    describe_comparison(v, c, [] {});
}

}  // namespace causeway::analysis

namespace causeway::report {

inline constexpr std::string_view kTraceNameDescription = "Name of the trace answered about.";
inline constexpr std::string_view kNoteDescription =
    "Empty, or what was cut from the answer and how to see more.";

// A Python frame of get_stacks' python_frames.
struct PythonFrameShown {
    analysis::PythonFrame frame{};
    std::string package{};  // what a library frame is folded under; empty for the user's code
};

template <class V>
void describe(V& v, const PythonFrameShown& f) {
    analysis::describe_python_frame(v, f.frame, f.package);
}

std::vector<PythonFrameShown> python_frames_shown(const std::vector<analysis::PythonFrame>& frames);

// A stack of get_stacks: its frames cut to the answer's depth, with how many there were.
struct StackAtDepth {
    analysis::StackEntry stack{};
    std::size_t depth = 0;
};

template <class V>
void describe(V& v, const StackAtDepth& shown) {
    const analysis::StackEntry& s = shown.stack;
    v.field("stack_id", s.stack_id);
    v.field("pid", s.pid);
    v.field("calls", s.calls);
    v.field("total_ns", s.total_ns);
    v.field("ops", s.ops);
    v.field("frames", first(s.frames, shown.depth),
            {.description = "Innermost first, at most `depth`."});
    v.field("frames_total", s.frames.size());
    // Only where Python frames were recorded, so answers about other traces keep their shape.
    v.fields_when(!s.python_frames.empty(), [&] {
        v.field("python_frames", python_frames_shown(s.python_frames),
                {.description = "Present where Python frames were recorded: innermost first."});
        v.field("python_truncated", s.python_truncated,
                {.description = "true: the thread had more Python frames than the collector "
                                "keeps; the outermost are missing."});
        v.field("merged_frames", first(s.merged.frames, shown.depth),
                {.description = "Present where Python frames were recorded: native frames above "
                                "the interpreter loop, then the Python frames, innermost first, "
                                "at most `depth`."});
        v.field("merged_frames_total", s.merged.frames.size());
        v.field("interpreter_frames_hidden", s.merged.interpreter_frames_hidden,
                {.description = "Native frames of the interpreter loop and below it, not shown."});
        v.field("user_line", s.user_line,
                {.description = "The user's own innermost Python line of this stack; null when "
                                "no frame had a file."});
    });
}

std::vector<StackAtDepth> stacks_at_depth(const StacksAnswer& answer);

template <class V>
void describe(V& v, const StacksAnswer& answer) {
    v.object_description("Call stacks behind CUDA time.");
    v.field("trace", answer.trace, {.description = kTraceNameDescription});
    v.field("stacks_in_trace", answer.report.stacks_in_trace);
    v.field("calls_with_stack", answer.report.calls_with_stack);
    v.field("stacks", stacks_at_depth(answer),
            {.description = "By total CUDA time, at most `limit`."});
    v.field("note", answer.note, {.description = kNoteDescription});
}

template <class V>
void describe(V& v, const EvidenceShown& shown) {
    const analysis::Evidence& e = shown.evidence;
    v.object_description("One measured fact.");
    v.field("key", e.key);
    v.field("value", e.value);
    v.field("unit", e.unit);
    v.field("text", shown.text);
}

template <class V>
void describe(V& v, const EffectShown& shown) {
    const analysis::Effect& e = shown.effect;
    v.object_description(
        "One way the actor cost the GPU-driving threads; a chain's time lost is the sum of its "
        "effects.");
    v.field("kind", std::string(analysis::effect_kind_name(e.kind)));
    v.field("wait", std::string(e.wait ? analysis::wait_kind_name(*e.wait) : ""));
    v.field("ns", e.ns);
    v.field("share", e.share);
    v.field("count", e.count);
    v.field("text", shown.text);
}

template <class V>
void describe(V& v, const VerdictShown& shown) {
    v.field("name", std::string(analysis::verdict_class_name(shown.verdict.verdict_class)),
            {.allowed_values = kVerdictClassNames});
    v.field("summary", shown.summary);
    v.field("numbers", shown.numbers);
}

template <class V>
void describe(V& v, const RecommendationShown& r) {
    v.object_description(
        "What to change: the kind (stable, for programs), its text and parameters.");
    v.field("kind", std::string(analysis::recommendation_kind_name(r.kind)),
            {.allowed_values = kRecommendationKindNames});
    v.field("text", r.text,
            {.description = "The recommendation for a person. Untrusted: from the traced system, "
                            "sanitised."});
    v.field("params", r.params,
            {.description = "The numbers it rests on, by name (counts are integers, shares "
                            "ratios 0..1), e.g. fewer_workers: {workers, cpus, num_workers}."});
}

template <class V>
void describe(V& v, const CausalChainsAnswer& answer) {
    v.object_description("Verdict and causal chains.");
    v.field("trace", answer.trace, {.description = kTraceNameDescription});
    analysis::describe_diagnosis(
        v, answer.diagnosis, [&] { v.field("chains_total", answer.chains_total); }, [] {});
    v.field("note", answer.note, {.description = kNoteDescription});
}

template <class V>
void describe(V& v, const ComparisonAnswer& answer) {
    v.object_description("Comparison of two recordings.");
    analysis::describe_comparison(v, answer.comparison,
                                  [&] { v.field("ops_total", answer.ops_total); });
    v.field("note", answer.note, {.description = kNoteDescription});
}

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
    v.field("actor_kind", cause.actor_kind,
            {.description = "The actor kind of the costliest of these chains; empty for a node "
                            "without chains."});
    v.field("actor", cause.actor, {.description = "Its name. Untrusted: from the traced system."});
    v.field("container", cause.container,
            {.description = "The actor's container and pod, where its cgroup path names them."});
    v.field("speedup", cause.speedup,
            {.description = "What removing that chain's cause speeds the node's loop up by; null "
                            "when not predicted."});
    v.field("device_twice_as_fast", cause.device_twice_as_fast,
            {.description = "The speed-up is for a device twice as fast (GPU-BOUND)."});
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
    v.field("collective_wait_ns", node.collective_wait_ns,
            {.description = "Its NCCL ranks' time in collectives waiting for the last rank to "
                            "arrive (ns)."});
    v.field("clock_offset_ns", node.clock_offset_ns,
            {.description = "Its clock against the reference node's, estimated from when the "
                            "ranks left each collective; null when it shares none with it."});
}

template <class V>
void describe(V& v, const RankOnNode& rank) {
    v.object_description("One rank of a communicator, on the node that pushed it.");
    v.field("node", rank.node);
    v.field("rank", rank.rank);
    v.field("pid", rank.pid);
    v.field("collectives", rank.collectives);
    v.field("arrived_last", rank.arrived_last,
            {.description = "Collectives every rank reached at which it arrived last."});
    v.field("late_ns", rank.late_ns,
            {.description = "Summed where it arrived last: its arrival after the next-to-last "
                            "rank's (ns)."});
    v.field("waited_ns", rank.waited_ns,
            {.description = "Summed: the last rank's arrival less its own (ns)."});
}

template <class V>
void describe(V& v, const LateRank& late) {
    v.object_description("The rank the others waited for in collectives.");
    v.field("node", late.node);
    v.field("rank", late.rank);
    v.field("arrived_last_share", late.arrived_last_share);
    v.field("mean_late_ns", late.mean_late_ns,
            {.description = "After the next-to-last rank, where it was last (ns)."});
    v.field("span_ns", late.span_ns, {.description = "From the first collective to the last."});
    v.field("late_ns", late.late_ns,
            {.description = "What the job gains when it arrives at each collective as the "
                            "next-to-last rank did (ns)."});
    v.field("job_speedup", late.job_speedup, {.description = "span / (span - late)."});
}

template <class V>
void describe(V& v, const AbsentRankOnNode& absent) {
    v.object_description("A rank that never issued a collective the others entered.");
    v.field("collective", absent.collective,
            {.description = "The collective it never issued (1-based, in the communicator's "
                            "order)."});
    v.field("node", absent.node);
    v.field("rank", absent.rank);
    v.field("pid", absent.pid);
    v.field("last_call", absent.last_call,
            {.description = "Its process's last CUDA or NCCL call; empty when none."});
    v.field("stuck_at", absent.stuck_at,
            {.description = "Where its thread was after that call (file:line in function); "
                            "empty when unknown. Untrusted."});
}

template <class V>
void describe(V& v, const JobCommunicator& communicator) {
    v.object_description(
        "An NCCL communicator of the job, its ranks aligned across the nodes by their "
        "collectives.");
    v.field("nranks", communicator.nranks);
    v.field("aligned", communicator.aligned, {.description = "Collectives every rank reached."});
    v.field("ranks", communicator.ranks, {.description = "By rank."});
    v.field("late_rank", communicator.late_rank,
            {.description = "The rank that arrived last most often, when the others' wait for "
                            "it is at least a tenth of the span; else null."});
    v.field("missing_number", communicator.missing_number,
            {.description = "A collective (1-based) some ranks never issued; 0 when none."});
    v.field("absent", communicator.absent, {.description = "The ranks that did not issue it."});
}

template <class V>
void describe(V& v, const Straggler& straggler) {
    v.object_description(
        "The node the job waits for (a rank that never arrived at a collective, else the rank the "
        "others waited for, else the slowest GPU loop) and its largest cause.");
    v.field("node", straggler.node);
    v.field("basis", std::string(straggler_basis_name(straggler.basis)),
            {.allowed_values = report::kStragglerBasisNames});
    v.field("rank", known_rank(straggler.rank),
            {.description = "Its NCCL rank where a collective names it, else its pushed rank."});
    v.field("loop_calls_per_s", straggler.loop_calls_per_s);
    v.field("cause", straggler.cause);
    v.field("cause_lost_ns", straggler.cause_lost_ns);
    v.field("slower_than_median_pct", straggler.slower_than_median_pct);
    v.field("actor", straggler.actor,
            {.description = "The largest cause's actor; empty without a chain. Untrusted."});
    v.field("container", straggler.container,
            {.description = "The actor's container and pod, where its cgroup path names them."});
    v.field("cause_speedup", straggler.cause_speedup,
            {.description = "What removing that cause speeds its node's loop up by."});
    v.field("device_twice_as_fast", straggler.device_twice_as_fast);
    v.field("late", straggler.late, {.description = "basis others_wait_for_it: how late."});
    v.field("absent", straggler.absent,
            {.description = "basis never_arrived: where it was last seen."});
}

template <class V>
void describe(V& v, const FleetOverview& overview) {
    v.object_description("Every node of a job side by side, summed in ClickHouse.");
    v.field("job", overview.job);
    v.field("nodes", overview.nodes, {.description = "In node name order."});
    v.field("communicators", overview.communicators,
            {.description = "The job's NCCL communicators whose every rank was pushed."});
    v.field("clock_reference", overview.clock_reference,
            {.description = "The node whose clock the others' are set to; empty without "
                            "communicators."});
    v.field("straggler", overview.straggler,
            {.description = "The node the job waits for and its largest cause; null when no "
                            "node has CUDA calls."});
    v.field("skew_pct", overview.skew_pct);
}

}  // namespace causeway::fleet

namespace causeway::collector {

inline const auto kCudaLibraryKindNames =
    report::enum_names<CudaLibraryKind::kLast>(cuda_library_kind_name);

template <class V>
void describe(V& v, const CudaLibrary& library) {
    v.field("path", library.path);
    v.field("kind", std::string(cuda_library_kind_name(library.kind)),
            {.allowed_values = kCudaLibraryKindNames});
    v.field("found_by", library.found_by);
}

template <class V>
void describe(V& v, const CudaProcess& process) {
    v.field("pid", process.pid);
    v.field("comm", process.comm, {.description = "Untrusted: process name from the system."});
    v.field("libraries", process.libraries);
}

}  // namespace causeway::collector

namespace causeway::report {

template <class V>
void describe(V& v, const ReadinessAnswer& answer) {
    const collector::Readiness& r = answer.readiness;
    v.no_other_fields();
    v.field("ready", r.ready(),
            {.description = "True when nothing stops recording (problems is empty)."});
    v.field("kernel_release", r.kernel_release);
    v.field("btf_present", r.btf_present);
    v.field("btf_path", r.btf_path);
    v.field("privileged", r.privileged(),
            {.description = "root, or CAP_BPF and CAP_PERFMON (of the server process)."});
    v.field("is_root", r.is_root);
    v.field("has_cap_bpf", r.has_cap_bpf);
    v.field("has_cap_perfmon", r.has_cap_perfmon);
    v.field("tracefs_mounted", r.tracefs_mounted,
            {.description = "Informational: the collector does not need tracefs."});
    v.field("libcudart_found", r.libcudart_found);
    v.field("libcuda_found", r.libcuda_found);
    v.field("cuda_libraries", r.cuda.libraries);
    v.field("searched", r.cuda.searched, {.description = "Every place looked for CUDA libraries."});
    v.field("cuda_processes", first(r.cuda_processes, answer.max_processes),
            {.max_items = kMaxCudaProcessesListed});
    v.field("cuda_process_count", r.cuda_processes.size(),
            {.description = "All processes with CUDA mapped, including those not listed.",
             .minimum = 0});
    v.field("problems", r.problems,
            {.description = "What stops recording, each saying what to do."});
    v.field("warnings", r.warnings);
}

}  // namespace causeway::report
