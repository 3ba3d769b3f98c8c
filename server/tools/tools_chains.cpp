// get_causal_chains: the verdict and the ranked, evidence-backed causal chains.
#include <fmt/format.h>

#include "analysis/diagnose/diagnosis.hpp"
#include "report/output_shape.hpp"
#include "report/shapes/diagnosis.hpp"
#include "server/tools/tool_runner.hpp"
#include "server/tools/tools.hpp"

namespace causeway::server {
namespace {

struct CausalChainsInput {
    TraceArguments trace{};
    FilterArguments filter{};
    std::int64_t limit = 5;
};

template <class V>
void describe(V& v, CausalChainsInput& in) {
    describe(v, in.trace);
    describe(v, in.filter, OpArgument::kNotTaken);
    v.field("limit", in.limit,
            {.description = "Most causal chains returned, strongest first (default 5, at most 20).",
             .minimum = 1,
             .maximum = 20});
}

// Every root-cause class, from the enum's one list of names.
std::string verdict_classes() {
    const auto names =
        report::enum_names<analysis::VerdictClass::kLast>(analysis::verdict_class_name);
    return fmt::format("{} or {}", fmt::join(names.begin(), names.end() - 1, ", "), names.back());
}

// The whole trace's diagnosis is the trace's own, computed once (and from the server's start:
// trace_set.hpp, warm_up); a part of it is diagnosed on each call.
Result<analysis::Diagnosis> diagnosis_of(const TraceTarget& target,
                                         const analysis::TraceFilter& filter) {
    if (filter.pid || filter.op || filter.window) {
        return analysis::diagnose(*target.model, {.filter = filter});
    }
    auto whole = target.trace->whole_diagnosis();
    if (!whole) {
        return whole.error();
    }
    return **whole;
}

Result<ToolAnswer> compute(const TraceTarget& target, const analysis::TraceFilter& filter,
                           std::size_t limit) {
    auto diagnosis = diagnosis_of(target, filter);
    if (!diagnosis) {
        return diagnosis.error();
    }
    report::CausalChainsAnswer answer{.trace = target.trace->name(),
                                      .diagnosis = std::move(diagnosis).value()};
    answer.chains_total = keep_first(answer.diagnosis.chains, limit);
    answer.note = cut_note(answer.diagnosis.chains.size(), answer.chains_total,
                           "causal chains (strongest first)", "raise limit for more");
    return tool_answer(answer);
}

}  // namespace

void add_causal_chains_tool(ToolRegistry& tools) {
    tools.add_tool<CausalChainsInput, report::CausalChainsAnswer>(
        {.name = "get_causal_chains",
         .title = "Verdict and causal chains",
         .description =
             "Why the GPU waits: the verdict (" + verdict_classes() +
             ") and one causal chain per root cause, the one whose removal gains most first: "
             "symptom, evidence measured on the slow calls' own threads (e.g. time preempted "
             "inside them and who took the CPU), root cause, recommendations with the direction "
             "to turn each knob, confidence, time lost and the predicted speed-up of removing it "
             "(critical_path). Also the threads that drive the GPU, data quality and what the "
             "trace cannot prove. Start here." +
             std::string(kUntrustedStringsSentence)},
        [](const CausalChainsInput& in, const ToolRequest& request) {
            const auto limit = static_cast<std::size_t>(in.limit);
            return answer_trace_question(
                request, in.trace, in.filter,
                [limit](const TraceTarget& target, const analysis::TraceFilter& filter)
                    -> Result<ToolAnswer> { return compute(target, filter, limit); });
        });
}

}  // namespace causeway::server
