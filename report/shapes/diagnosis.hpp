#pragma once
// The shape of get_causal_chains (CausalChainsAnswer) and `causeway explain --json` (Diagnosis).
// Each struct's describe() names its fields in order, with their descriptions: the JSON
// (write_json) and the tool output schemas (causeway-schemas) are both read from it
// (report/output_shape.hpp explains how).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/diagnose/causal_chain.hpp"
#include "analysis/diagnose/diagnosis.hpp"
#include "analysis/diagnose/verdict.hpp"
#include "analysis/measure/python_lines.hpp"
#include "report/chain_text.hpp"
#include "report/ranks_text.hpp"
#include "report/shapes/process_breakdown.hpp"
#include "report/shapes/shared.hpp"
#include "report/shapes/timeline.hpp"
#include "report/shapes/trace_stats.hpp"
#include "report/tool_answers.hpp"
#include "report/verdict_text.hpp"

namespace causeway::report {

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

}  // namespace causeway::report

namespace causeway::analysis {

template <class V>
void describe(V& v, const Competitor& c) {
    v.field("comm", c.comm, {.description = kUntrustedDescription});
    v.field("pid", c.pid);
    v.field("tid", c.tid);
    v.field("in_tree", c.in_tree);
    v.field("role", std::string(role_name(c.role)), {.allowed_values = report::kRoleNames});
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

}  // namespace causeway::analysis

namespace causeway::report {

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
    v.field("kind", std::string(analysis::effect_kind_name(e.kind)),
            {.allowed_values = kEffectKindNames});
    v.field("wait", std::string(e.wait ? analysis::wait_kind_name(*e.wait) : ""),
            {.allowed_values = kEffectWaitNames});
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

}  // namespace causeway::report
