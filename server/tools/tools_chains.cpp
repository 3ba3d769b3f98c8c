// get_causal_chains: the verdict and the ranked, evidence-backed causal chains.
#include <fmt/format.h>

#include "analysis/diagnose/diagnosis.hpp"
#include "analysis/human_units.hpp"
#include "server/analysis_json.hpp"
#include "server/tools/tool_runner.hpp"
#include "server/tools/tool_schemas.hpp"
#include "server/tools/tools.hpp"

namespace causeway::server {
namespace {

const json& input_schema() {
    static const json schema = tool_schema("get_causal_chains.input.json");
    return schema;
}

Result<json> compute(const TraceTarget& target, const analysis::TraceFilter& filter,
                     std::size_t limit) {
    analysis::DiagnosisOptions options;
    options.filter = filter;
    const analysis::Diagnosis diagnosis = analysis::diagnose(*target.model, options);
    json chains = json::array();
    for (std::size_t i = 0; i < diagnosis.chains.size() && i < limit; ++i) {
        chains.push_back(to_json(diagnosis.chains[i]));
    }
    json gpu_threads = json::array();
    for (const auto& thread : diagnosis.gpu_threads) {
        gpu_threads.push_back({{"pid", thread.pid}, {"tid", thread.tid}, {"comm", thread.comm}});
    }
    return json{{"verdict", to_json(diagnosis.verdict)},
                {"chains", std::move(chains)},
                {"chains_total", diagnosis.chains.size()},
                {"gpu_threads", std::move(gpu_threads)},
                {"data_quality", to_json(diagnosis.data_quality)},
                {"evidence_limits", diagnosis.evidence_limits},
                {"session", to_json(diagnosis.session)},
                {"range", to_json(diagnosis.range)},
                {"note", cut_note(std::min(limit, diagnosis.chains.size()), diagnosis.chains.size(),
                                  "causal chains (strongest first)", "raise limit for more")}};
}

std::string render(const json& answer) {
    const json& verdict = answer["verdict"];
    std::string text = fmt::format("Verdict: {} — {}\n", verdict["name"].get<std::string>(),
                                   verdict["summary"].get<std::string>());
    int rank = 0;
    for (const auto& chain : answer["chains"]) {
        text += fmt::format("\n{}. {} ({} confidence, {} lost, {} of the GPU threads' time)\n",
                            ++rank, chain["root_cause_class"].get<std::string>(),
                            chain["confidence"].get<std::string>(),
                            analysis::format_duration(chain["time_lost_ns"].get<std::int64_t>()),
                            analysis::format_percent(chain["time_lost_share"].get<double>()));
        text += fmt::format("   Actor: {} {}\n", chain["actor"]["kind"].get<std::string>(),
                            chain["actor"]["name"].get<std::string>());
        for (const auto& effect : chain["effects"]) {
            text += "   Effect: " + effect["text"].get<std::string>() + "\n";
        }
        if (chain.contains("code")) {
            text += "   Code: " + chain["code"].get<std::string>() + "\n";
        }
        text += "   Symptom: " + chain["symptom"].get<std::string>() + "\n";
        for (const auto& evidence : chain["evidence"]) {
            text += "   Evidence: " + evidence["text"].get<std::string>() + "\n";
        }
        for (const auto& competitor : chain["competitors"]) {
            text += fmt::format(
                "   Competitor: {} pid {} took {} ({})\n", competitor["comm"].get<std::string>(),
                competitor["pid"].get<std::int64_t>(),
                analysis::format_duration(competitor["preempted_ns"].get<std::int64_t>()),
                analysis::format_percent(competitor["share"].get<double>()));
        }
        text += "   Root cause: " + chain["root_cause"].get<std::string>() + "\n";
        for (const auto& recommendation : chain["recommendations"]) {
            text += "   Do: " + recommendation.get<std::string>() + "\n";
        }
    }
    for (const auto& limit : answer["evidence_limits"]) {
        text += "Limit: " + limit.get<std::string>() + "\n";
    }
    if (!answer["note"].get<std::string>().empty()) {
        text += "Note: " + answer["note"].get<std::string>() + "\n";
    }
    return text;
}

}  // namespace

ToolSpec make_causal_chains_tool() {
    return ToolSpec{
        "get_causal_chains",
        "Verdict and causal chains",
        "Why the GPU waits: the verdict (INPUT-BOUND, CPU-CONTENDED, GPU-BOUND, TRANSFER-BOUND, "
        "ALLOCATION-CHURN, COLD-START, HEALTHY or INSUFFICIENT-DATA) and one causal chain per "
        "root cause, strongest first: symptom, evidence measured on the slow calls' own threads "
        "(e.g. time preempted inside them and who took the CPU), root cause, recommendations "
        "with the direction to turn each knob, confidence and time lost. Also the threads that "
        "drive the GPU, data quality and what the trace cannot prove. Start here." +
            std::string(kUntrustedStringsSentence),
        input_schema(),
        tool_schema("get_causal_chains.output.json"),
        [](const json& arguments, const TraceSet& traces, ToolContext& context) {
            const auto limit =
                static_cast<std::size_t>(integer_argument(arguments, input_schema(), "limit"));
            return answer_trace_question(
                {"get_causal_chains",
                 [limit](const TraceTarget& target, const analysis::TraceFilter& filter) {
                     return compute(target, filter, limit);
                 },
                 render},
                arguments, traces, context);
        }};
}

}  // namespace causeway::server
