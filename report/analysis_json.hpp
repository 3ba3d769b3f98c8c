#pragma once
// JSON of the analysis structs: the one serialisation that `causeway explain --json`, `causeway
// stats --json` and the MCP tools' structuredContent all use. Field names are stable (the
// scenario suite and schemas/tools/*.json depend on them); durations in ns, sizes in bytes,
// shares as ratios 0..1, NULL where a value is not known.

#include <vector>

#include "report/json.hpp"

#include "analysis/diagnose/causal_chain.hpp"
#include "analysis/diagnose/data_quality.hpp"
#include "analysis/diagnose/diagnosis.hpp"
#include "analysis/diagnose/verdict.hpp"
#include "analysis/measure/distribution.hpp"
#include "analysis/measure/process_breakdown.hpp"
#include "analysis/measure/timeline.hpp"
#include "analysis/measure/trace_stats.hpp"
#include "analysis/model/trace_filter.hpp"
#include "analysis/sql/readonly_sql.hpp"

namespace causeway::report {

nlohmann::json to_json(const analysis::Distribution& d);
nlohmann::json to_json(const analysis::TimeWindow& w);
nlohmann::json to_json(const analysis::SessionSummary& s);
nlohmann::json to_json(const analysis::OpStats& s);
nlohmann::json to_json(const analysis::HostSummary& h);
nlohmann::json to_json(const analysis::DataQualityReport& r);
nlohmann::json to_json(const analysis::TraceStats& s);
nlohmann::json to_json(const analysis::CausalChain& c);
nlohmann::json to_json(const analysis::SchedBreakdown& s);
nlohmann::json to_json(const analysis::ThreadRow& t);
nlohmann::json to_json(const analysis::ProcessRow& p);
nlohmann::json to_json(const analysis::ProcessBreakdown& b);
nlohmann::json to_json(const analysis::Diagnosis& d);
nlohmann::json to_json(const analysis::Timeline& t);
// Blobs become {"blob_bytes": N}.
nlohmann::json to_json(const analysis::SqlResult& r);

// A JSON array of each item's to_json.
template <class T>
nlohmann::json array_of(const std::vector<T>& items) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& item : items) {
        out.push_back(to_json(item));
    }
    return out;
}

}  // namespace causeway::report
