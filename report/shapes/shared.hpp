#pragma once
// The pieces several outputs share: the names of the enums their schemas list, the
// descriptions every untrusted string and trace name carries, and the measures many answers hold
// (a distribution, a thread's scheduling, a container).
// Each struct's describe() names its fields in order, with their descriptions: the JSON
// (write_json) and the tool output schemas (causeway-schemas) are both read from it
// (report/output_shape.hpp explains how).

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "analysis/diagnose/causal_chain.hpp"
#include "analysis/diagnose/cause_kind.hpp"
#include "analysis/diagnose/process_roles.hpp"
#include "analysis/diagnose/recommendation.hpp"
#include "analysis/measure/distribution.hpp"
#include "analysis/measure/process_breakdown.hpp"
#include "analysis/measure/python_lines.hpp"
#include "analysis/measure/wait_kind.hpp"
#include "analysis/model/container_identity.hpp"
#include "analysis/model/trace_filter.hpp"
#include "report/output_shape.hpp"

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
inline const auto kRoleNames = enum_names<analysis::Role::kLast>(analysis::role_name);
inline const auto kEffectKindNames =
    enum_names<analysis::EffectKind::kLast>(analysis::effect_kind_name);
// An effect's wait: what the actor's victim slept in, "" when the effect is not a wait.
inline const auto kEffectWaitNames = [] {
    const auto kinds = enum_names<analysis::WaitKind::kLast>(analysis::wait_kind_name);
    std::array<const char*, std::tuple_size_v<decltype(kinds)> + 1> names{""};
    std::copy(kinds.begin(), kinds.end(), names.begin() + 1);
    return names;
}();

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
void describe(V& v, const TimeWindow& window) {
    v.object_description("Time range covered (ns since the start of recording).");
    v.field("start_ns", window.start_ns);
    v.field("end_ns", window.end_ns);
    v.field("dur_ns", window.dur_ns());
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

}  // namespace causeway::analysis

namespace causeway::report {

inline constexpr std::string_view kTraceNameDescription = "Name of the trace answered about.";
inline constexpr std::string_view kNoteDescription =
    "Empty, or what was cut from the answer and how to see more.";

}  // namespace causeway::report
