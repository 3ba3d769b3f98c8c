#pragma once
// JSON of a comparison of two recordings (analysis/compare/trace_comparison.hpp): what `causeway
// compare --json` prints and the structuredContent of the compare_traces tool. Durations in ns,
// rates per second, shares 0..1, NULL where a cause was no chain on one side.

#include "report/json.hpp"

#include "analysis/compare/trace_comparison.hpp"

namespace causeway::report {

nlohmann::json to_json(const analysis::RankTest& t);
nlohmann::json to_json(const analysis::ShiftTest& s);
nlohmann::json to_json(const analysis::RateBootstrap& b);
nlohmann::json to_json(const analysis::LoopThroughput& l);
nlohmann::json to_json(const analysis::ComparedRecording& r);
nlohmann::json to_json(const analysis::CauseChange& c);
nlohmann::json to_json(const analysis::OpLatencyChange& o);
nlohmann::json to_json(const analysis::TraceComparison& c);

}  // namespace causeway::report
