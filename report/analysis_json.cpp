#include "report/analysis_json.hpp"

#include <optional>
#include <type_traits>
#include <variant>

#include "analysis/measure/python_lines.hpp"
#include "report/chain_text.hpp"
#include "report/evidence_text.hpp"
#include "report/optional_json.hpp"
#include "report/output_shapes.hpp"
#include "report/recommendation_text.hpp"
#include "report/verdict_text.hpp"

namespace causeway::report {
namespace {

using nlohmann::json;

json native_frame_json(const analysis::StackFrame& f) {
    return {{"address", f.address},
            {"module", optional_json(f.module)},
            {"symbol", optional_json(f.symbol)},
            {"offset", optional_json(f.offset)}};
}

// `package`: what a library frame is folded under; empty for the user's own code.
json python_frame_json(const analysis::PythonFrame& f, const std::string& package) {
    return {{"file", optional_json(f.file)},
            {"function", optional_json(f.function)},
            {"line", optional_json(f.line)},
            {"library", !package.empty()},
            {"package", package}};
}

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

// `text`: the evidence in words (report/evidence_text), quoting its chain where it has one.
json evidence_json(const analysis::Evidence& e, const std::string& text) {
    return {{"key", e.key}, {"value", e.value}, {"unit", e.unit}, {"text", text}};
}

json evidence_array(const analysis::CausalChain& chain) {
    json out = json::array();
    for (const auto& e : chain.evidence) {
        out.push_back(evidence_json(e, evidence_text(chain, e)));
    }
    return out;
}

json effects_json(const analysis::CausalChain& chain) {
    json out = json::array();
    for (const auto& e : chain.effects) {
        out.push_back({{"kind", analysis::effect_kind_name(e.kind)},
                       {"wait", e.wait ? analysis::wait_kind_name(*e.wait) : ""},
                       {"ns", e.ns},
                       {"share", e.share},
                       {"count", e.count},
                       {"text", effect_text(chain, e)}});
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
    return {{"kind", analysis::cause_kind_name(a.kind)},
            {"name", a.name},
            {"pid", a.pid},
            {"tid", a.tid},
            {"pids", a.pids},
            {"in_tree", a.in_tree}};
}

json to_json(const analysis::CodeLine& l) {
    return {{"file", l.file},     {"function", l.function},
            {"line", l.line},     {"library", l.library},
            {"stacks", l.stacks}, {"stacks_total", l.stacks_total},
            {"share", l.share},   {"text", analysis::describe_line(l)}};
}

json to_json(const analysis::CausalChain& c) {
    json chain = {{"root_cause_class", analysis::verdict_class_name(c.root_cause_class)},
                  {"actor", to_json(c.actor)},
                  {"effects", effects_json(c)},
                  {"symptom", symptom_text(c)},
                  {"op", optional_json(c.op)},
                  {"evidence", evidence_array(c)},
                  {"competitors", array_of(c.competitors)},
                  {"root_cause", root_cause_text(c)},
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
        chain["code"] = code_summary(c);
    }
    return chain;
}

json verdict_json(const analysis::Diagnosis& d) {
    json numbers = json::array();
    for (const auto& e : d.verdict.numbers) {
        numbers.push_back(evidence_json(e, evidence_text(e)));
    }
    return {{"name", analysis::verdict_class_name(d.verdict.verdict_class)},
            {"summary", verdict_summary(d)},
            {"numbers", std::move(numbers)}};
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
    return {{"verdict", verdict_json(d)},
            {"chains", array_of(d.chains)},
            {"gpu_threads", array_of(d.gpu_threads)},
            {"processes", array_of(d.processes.processes)},
            {"total_processes", d.processes.total_processes},
            {"data_quality", to_json(d.data_quality)},
            {"evidence_limits", evidence_limit_texts(d.evidence_limits)},
            {"session", to_json(d.session)},
            {"range", to_json(d.range)}};
}

json to_json(const analysis::Timeline& t) {
    return write_json(t);
}

json to_json(const analysis::StackReport& r) {
    json stacks = json::array();
    for (const auto& s : r.stacks) {
        json ops = json::array();
        for (const auto& op : s.ops) {
            ops.push_back({{"op", op.op},
                           {"calls", op.calls},
                           {"total_ns", op.total_ns},
                           {"max_ns", op.max_ns}});
        }
        json frames = json::array();
        for (const auto& f : s.frames) {
            frames.push_back(native_frame_json(f));
        }
        json stack = {{"stack_id", s.stack_id}, {"pid", s.pid}, {"calls", s.calls},
                      {"total_ns", s.total_ns}, {"ops", ops},   {"frames", frames}};
        if (!s.python_frames.empty()) {
            json python = json::array();
            for (const auto& f : s.python_frames) {
                python.push_back(python_frame_json(
                    f, f.file ? analysis::library_package(*f.file) : std::string("stdlib")));
            }
            json merged = json::array();
            for (const auto& f : s.merged.frames) {
                merged.push_back(f.python ? python_frame_json(f.code, f.package)
                                          : native_frame_json(f.native));
                merged.back()["kind"] = f.python ? "python" : "native";
            }
            stack["python_frames"] = python;
            stack["python_truncated"] = optional_json(s.python_truncated);
            stack["merged_frames"] = merged;
            stack["interpreter_frames_hidden"] = s.merged.interpreter_frames_hidden;
            stack["user_line"] = s.user_line ? to_json(*s.user_line) : json(nullptr);
        }
        stacks.push_back(std::move(stack));
    }
    return {{"stacks_in_trace", r.stacks_in_trace},
            {"calls_with_stack", r.calls_with_stack},
            {"stacks", stacks}};
}

json to_json(const analysis::SqlResult& r) {
    return write_json(r);
}

}  // namespace causeway::report
