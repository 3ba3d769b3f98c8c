#pragma once
// The shape of compare_traces (ComparisonAnswer) and `causeway compare --json` (TraceComparison).
// Each struct's describe() names its fields in order, with their descriptions: the JSON
// (write_json) and the tool output schemas (causeway-schemas) are both read from it
// (report/output_shape.hpp explains how).

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "report/comparison_headline.hpp"
#include "report/comparison_words.hpp"
#include "report/shapes/diagnosis.hpp"
#include "report/shapes/shared.hpp"
#include "report/shapes/timeline.hpp"
#include "report/tool_answers.hpp"

namespace causeway::report {

// A compared recording's GPU-driving threads in words (gpu_thread_text, comparison_words.hpp).
std::vector<std::string> gpu_thread_texts(const analysis::ComparedRecording& recording);

}  // namespace causeway::report

namespace causeway::analysis {

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

template <class V>
void describe(V& v, const ComparisonAnswer& answer) {
    v.object_description("Comparison of two recordings.");
    analysis::describe_comparison(v, answer.comparison,
                                  [&] { v.field("ops_total", answer.ops_total); });
    v.field("note", answer.note, {.description = kNoteDescription});
}

}  // namespace causeway::report
