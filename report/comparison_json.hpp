#pragma once
// JSON of a comparison of two recordings (analysis/compare/trace_comparison.hpp): what `causeway
// compare --json` prints (the compare_traces tool adds ops_total and note: ComparisonAnswer).
// Written from the describe() of report/shapes/comparison.hpp. Durations in ns, rates per second,
// shares 0..1, NULL where a cause was no chain on one side.

#include "report/json.hpp"

#include "analysis/compare/trace_comparison.hpp"

namespace causeway::report {

nlohmann::json to_json(const analysis::TraceComparison& c);

}  // namespace causeway::report
