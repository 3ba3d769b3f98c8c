#include "report/comparison_json.hpp"

#include "report/analysis_json.hpp"
#include "report/comparison_headline.hpp"
#include "report/comparison_words.hpp"
#include "report/optional_json.hpp"

namespace causeway::report {
using nlohmann::json;

json to_json(const analysis::RankTest& t) {
    return {{"tested", t.tested},
            {"before_values", t.before_values},
            {"after_values", t.after_values},
            {"z", t.z},
            {"p_value", t.p_value},
            {"after_larger_probability", t.after_larger_probability}};
}

json to_json(const analysis::ShiftTest& s) {
    return {{"rank_test", to_json(s.rank)},
            {"adjusted_p_value", s.adjusted_p_value},
            {"significant", s.significant},
            {"beyond_noise", s.beyond_noise}};
}

json to_json(const analysis::RateBootstrap& b) {
    return {{"tested", b.tested},
            {"before_values", b.before_values},
            {"after_values", b.after_values},
            {"rate_ratio", b.rate_ratio},
            {"ci_low", b.ci_low},
            {"ci_high", b.ci_high},
            {"p_value", b.p_value}};
}

json to_json(const analysis::LoopThroughput& l) {
    return {{"unit", analysis::loop_unit_name(l.unit)},
            {"marker_op", l.marker_op.empty() ? json(nullptr) : json(l.marker_op)},
            {"calls_per_step", l.calls_per_step},
            {"count", l.count},
            {"span_ns", l.span_ns},
            {"per_s", l.per_s}};
}

namespace {

json gpu_thread_texts(const analysis::ComparedRecording& r) {
    json threads = json::array();
    for (const auto& thread : r.gpu_threads) {
        threads.push_back(gpu_thread_text(thread));
    }
    return threads;
}

}  // namespace

json to_json(const analysis::ComparedRecording& r) {
    return {{"path", r.path},
            {"program", r.program},
            {"verdict", r.verdict},
            {"range", to_json(r.range)},
            {"gpu_threads", gpu_thread_texts(r)},
            {"loop", to_json(r.loop)}};
}

json to_json(const analysis::CauseChange& c) {
    return {{"key", c.key},
            {"root_cause_class", c.root_cause_class},
            {"actor_kind", c.actor_kind},
            {"actor_name", c.actor_name},
            {"status", analysis::cause_status_name(c.status)},
            {"before_ns", optional_json(c.before_ns)},
            {"after_ns", optional_json(c.after_ns)},
            {"before_share", optional_json(c.before_share)},
            {"after_share", optional_json(c.after_share)}};
}

json to_json(const analysis::OpLatencyChange& o) {
    return {{"op", o.op},
            {"api", o.api},
            {"category", o.category},
            {"before", to_json(o.before)},
            {"after", to_json(o.after)},
            {"shift", to_json(o.shift)}};
}

json to_json(const analysis::TraceComparison& c) {
    json causes = json::array();
    for (const auto& cause : c.causes) {
        causes.push_back(to_json(cause));
    }
    json ops = json::array();
    for (const auto& op : c.ops.common) {
        ops.push_back(to_json(op));
    }
    return {{"headline", comparison_headline(c)},
            {"before", to_json(c.before)},
            {"after", to_json(c.after)},
            {"throughput_method", throughput_method_text(c)},
            {"throughput_ratio", c.throughput_ratio},
            {"throughput_test", to_json(c.throughput_test)},
            {"throughput_beyond_noise", c.throughput_beyond_noise},
            {"causes", causes},
            {"ops", ops},
            {"ops_only_before", c.ops.only_before},
            {"ops_only_after", c.ops.only_after},
            {"significance_method", significance_method_text(c.options)},
            {"warnings", difference_texts(c)}};
}

}  // namespace causeway::report
