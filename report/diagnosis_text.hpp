#pragma once
// `causeway explain` for a person: verdict first, then ranked chains with their evidence and
// recommendations, the process table, data quality and the limits of the evidence.

#include <string>

#include "analysis/diagnose/diagnosis.hpp"
#include "report/terminal_style.hpp"

namespace causeway::report {

// The first line is always "Verdict: <NAME> ...".
std::string render_diagnosis(const analysis::Diagnosis& diagnosis, const std::string& db_path,
                             const TerminalStyle& style);

// The process table (shared with other commands that list processes).
std::string render_process_table(const analysis::ProcessBreakdown& breakdown);

// The "Data quality" section of explain and stats: its heading, then one line per item or
// "nothing lost, nothing unmatched".
std::string render_data_quality(const analysis::DataQualityReport& report,
                                const TerminalStyle& style);

}  // namespace causeway::report
