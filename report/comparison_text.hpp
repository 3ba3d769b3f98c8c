#pragma once
// `causeway compare` for a person: the one-line verdict, throughput and how a step was found,
// causes before and after, per-op percentiles with their change and whether it is beyond noise.

#include <string>

#include "analysis/compare/trace_comparison.hpp"
#include "report/terminal_style.hpp"

namespace causeway::report {

std::string render_comparison(const analysis::TraceComparison& comparison,
                              const TerminalStyle& style);

}  // namespace causeway::report
