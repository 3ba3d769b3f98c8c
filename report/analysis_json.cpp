#include "report/analysis_json.hpp"

#include <vector>

#include "report/output_shapes.hpp"
#include "report/recommendation_text.hpp"

namespace causeway::report {

using nlohmann::json;

std::vector<RecommendationShown> recommendations_shown(const analysis::CausalChain& chain) {
    std::vector<RecommendationShown> shown;
    for (const auto& r : chain.recommendations) {
        RecommendationShown& out = shown.emplace_back(
            RecommendationShown{.kind = r.kind, .text = recommendation_text(chain, r)});
        for (const auto& p : r.params) {
            out.params[p.name] = p.value;
        }
    }
    return shown;
}

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

json to_json(const analysis::CausalChain& c) {
    return write_json(c);
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

json to_json(const analysis::Diagnosis& d) {
    return write_json(d);
}

json to_json(const analysis::Timeline& t) {
    return write_json(t);
}

json to_json(const analysis::SqlResult& r) {
    return write_json(r);
}

}  // namespace causeway::report
