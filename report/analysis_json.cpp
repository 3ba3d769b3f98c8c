#include "report/analysis_json.hpp"

#include <optional>
#include <variant>
#include <vector>

#include "report/chain_text.hpp"
#include "report/evidence_text.hpp"
#include "report/recommendation_text.hpp"
#include "report/shapes/diagnosis.hpp"
#include "report/shapes/sql.hpp"
#include "report/shapes/trace_stats.hpp"
#include "report/verdict_text.hpp"

namespace causeway::report {

using nlohmann::json;

std::vector<RecommendationShown> recommendations_shown(const analysis::CausalChain& chain) {
    std::vector<RecommendationShown> shown;
    for (const auto& r : chain.recommendations) {
        RecommendationShown& out = shown.emplace_back(
            RecommendationShown{.kind = r.kind, .text = recommendation_text(chain, r)});
        // A recommendation rests on numbers only (recommendation.hpp), never on text.
        for (const auto& p : r.params) {
            if (const auto* count = std::get_if<std::int64_t>(&p.value)) {
                out.params[std::string(analysis::fact_name(p.fact))] = *count;
            } else if (const auto* ratio = std::get_if<double>(&p.value)) {
                out.params[std::string(analysis::fact_name(p.fact))] = *ratio;
            }
        }
    }
    return shown;
}

std::vector<EvidenceShown> evidence_shown(const analysis::CausalChain& chain) {
    std::vector<EvidenceShown> shown;
    for (const auto& e : chain.evidence) {
        shown.push_back({e, evidence_text(chain, e)});
    }
    return shown;
}

std::vector<EffectShown> effects_shown(const analysis::CausalChain& chain) {
    std::vector<EffectShown> shown;
    for (const auto& e : chain.effects) {
        shown.push_back({e, effect_text(chain, e)});
    }
    return shown;
}

VerdictShown verdict_shown(const analysis::Diagnosis& diagnosis) {
    VerdictShown shown{.verdict = diagnosis.verdict, .summary = verdict_summary(diagnosis)};
    for (const auto& e : diagnosis.verdict.numbers) {
        shown.numbers.push_back({e, evidence_text(e)});
    }
    return shown;
}

std::optional<std::string> code_shown(const analysis::CausalChain& chain) {
    return chain.gpu_thread_line || chain.actor_line
               ? std::optional<std::string>(code_summary(chain))
               : std::nullopt;
}

json to_json(const analysis::TraceStats& s) {
    return write_json(s);
}

json to_json(const analysis::CausalChain& c) {
    return write_json(c);
}

json to_json(const analysis::Diagnosis& d) {
    return write_json(d);
}

json to_json(const analysis::SqlResult& r) {
    return write_json(r);
}

}  // namespace causeway::report
