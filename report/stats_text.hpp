#pragma once
// `causeway stats` for a person: the trace's headline, the per-op table (exact percentiles), the
// host summary and data quality.

#include <string>

#include "analysis/measure/trace_stats.hpp"
#include "report/terminal_style.hpp"

namespace causeway::report {

std::string render_stats(const analysis::TraceStats& stats, const std::string& db_path,
                         const TerminalStyle& style);

}  // namespace causeway::report
