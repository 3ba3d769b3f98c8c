#include "report/analysis_json.hpp"

#include <optional>
#include <type_traits>
#include <variant>

#include "analysis/measure/python_lines.hpp"
#include "report/optional_json.hpp"
#include "report/output_shapes.hpp"
#include "report/recommendation_text.hpp"

namespace causeway::report {
namespace {

using nlohmann::json;

// Each recommendation as {kind, text, params}: programs read the kind and its numbers, people
// the text.
json recommendations_json(const analysis::CausalChain& chain) {
    json out = json::array();
    for (const auto& r : chain.recommendations) {
        json params = json::object();
        for (const auto& p : r.params) {
            params[p.name] = std::visit([](auto value) { return json(value); }, p.value);
        }
        out.push_back({{"kind", analysis::recommendation_kind_name(r.kind)},
                       {"text", recommendation_text(chain, r)},
                       {"params", std::move(params)}});
    }
    return out;
}

}  // namespace

json to_json(const analysis::Distribution& d) {
    return write_json(d);
}

json to_json(const analysis::TimeWindow& w) {
    return write_json(w);
}

json to_json(const analysis::SessionSummary& s) {
    return write_json(s);
}

json to_json(const analysis::OpStats& s) {
    return write_json(s);
}

json to_json(const analysis::HostSummary& h) {
    return write_json(h);
}

json to_json(const analysis::DataQualityReport& r) {
    return write_json(r);
}

json to_json(const analysis::TraceStats& s) {
    return write_json(s);
}

json to_json(const analysis::Evidence& e) {
    return {{"key", e.key}, {"value", e.value}, {"unit", e.unit}, {"text", e.text}};
}

json to_json(const analysis::Competitor& c) {
    return {{"comm", c.comm},
            {"pid", c.pid},
            {"tid", c.tid},
            {"in_tree", c.in_tree},
            {"role", analysis::role_name(c.role)},
            {"preempted_ns", c.preempted_ns},
            {"share", c.share}};
}

json to_json(const analysis::Actor& a) {
    return {{"kind", a.kind}, {"name", a.name}, {"pid", a.pid},
            {"tid", a.tid},   {"pids", a.pids}, {"in_tree", a.in_tree}};
}

json to_json(const analysis::Effect& e) {
    return {{"kind", e.kind},   {"wait", e.wait},   {"ns", e.ns},
            {"share", e.share}, {"count", e.count}, {"text", e.text}};
}

json to_json(const analysis::CodeLine& l) {
    return write_json(l);
}

json to_json(const analysis::CausalChain& c) {
    json chain = {{"root_cause_class", c.root_cause_class},
                  {"actor", to_json(c.actor)},
                  {"effects", array_of(c.effects)},
                  {"symptom", c.symptom},
                  {"op", optional_json(c.op)},
                  {"evidence", array_of(c.evidence)},
                  {"competitors", array_of(c.competitors)},
                  {"root_cause", c.root_cause},
                  {"recommendations", recommendations_json(c)},
                  {"confidence", analysis::confidence_name(c.confidence)},
                  {"time_lost_ns", c.time_lost_ns},
                  {"time_lost_share", c.time_lost_share}};
    // Only where Python frames were recorded, so answers about other traces keep their shape.
    if (c.gpu_thread_line) {
        chain["gpu_thread_line"] = to_json(*c.gpu_thread_line);
    }
    if (c.actor_line) {
        chain["actor_line"] = to_json(*c.actor_line);
    }
    if (c.gpu_thread_line || c.actor_line) {
        chain["code"] = analysis::code_summary(c);
    }
    return chain;
}

json to_json(const analysis::Verdict& v) {
    return {{"name", v.name}, {"summary", v.summary}, {"numbers", array_of(v.numbers)}};
}

json to_json(const analysis::SchedBreakdown& s) {
    return write_json(s);
}

json to_json(const analysis::ThreadRow& t) {
    return write_json(t);
}

json to_json(const analysis::ProcessRow& p) {
    return write_json(p);
}

json to_json(const analysis::ProcessBreakdown& b) {
    return {{"total_processes", b.total_processes}, {"processes", array_of(b.processes)}};
}

json to_json(const analysis::GpuThread& t) {
    return {{"pid", t.pid}, {"tid", t.tid}, {"comm", t.comm}};
}

json to_json(const analysis::Diagnosis& d) {
    return {{"verdict", to_json(d.verdict)},
            {"chains", array_of(d.chains)},
            {"gpu_threads", array_of(d.gpu_threads)},
            {"processes", array_of(d.processes.processes)},
            {"total_processes", d.processes.total_processes},
            {"data_quality", to_json(d.data_quality)},
            {"evidence_limits", d.evidence_limits},
            {"session", to_json(d.session)},
            {"range", to_json(d.range)}};
}

json to_json(const analysis::Timeline& t) {
    return write_json(t);
}

json to_json(const analysis::SqlResult& r) {
    return write_json(r);
}

}  // namespace causeway::report
