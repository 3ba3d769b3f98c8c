#pragma once
// The one-line verdict of a comparison, first in every rendering: the throughput change, the
// causes that went away, the op whose median moved most, what is new (or "nothing new"), e.g.
// "2.4x more steps/s; CPU-CONTENDED by pt_data_worker is gone; nothing new".

#include <string>

#include "analysis/compare/trace_comparison.hpp"

namespace causeway::report {

std::string comparison_headline(const analysis::TraceComparison& comparison);

}  // namespace causeway::report
