#pragma once
// JSON of the analysis structs: the one serialisation that `causeway explain --json`, `causeway
// stats --json` and the MCP tools' structuredContent all use. Field names are stable (the
// scenario suite and schemas/tools/*.json depend on them); durations in ns, sizes in bytes,
// shares as ratios 0..1, NULL where a value is not known.

#include "report/json.hpp"

#include "analysis/diagnose/causal_chain.hpp"
#include "analysis/diagnose/diagnosis.hpp"
#include "analysis/measure/trace_stats.hpp"
#include "analysis/sql/readonly_sql.hpp"

namespace causeway::report {

nlohmann::json to_json(const analysis::TraceStats& s);
nlohmann::json to_json(const analysis::CausalChain& c);
nlohmann::json to_json(const analysis::Diagnosis& d);
// Blobs become {"blob_bytes": N}.
nlohmann::json to_json(const analysis::SqlResult& r);

}  // namespace causeway::report
