#pragma once
// `causeway explain` for a person: verdict first, then ranked chains with their evidence and
// recommendations, the process table, data quality and the limits of the evidence.

#include <string>

#include "analysis/diagnose/diagnosis.hpp"
#include "report/terminal_style.hpp"

namespace causeway::report {

// How much of the diagnosis the text shows beside the verdict and the chains.
enum class TextDetail {
    // One screen: the data-quality counters that are not zero (else one line saying nothing was
    // lost), and of the processes outside the traced tree only those that took at least
    // kFoldedCpuShare of the recording in CPU from its threads, the rest folded into one line.
    kSummary,
    kEverything,  // every counter and every process row (--verbose)
};
// Outside processes that took less of the traced threads' CPU than this share of the recording
// are folded in the summary (kernel threads and daemons that ran for a few milliseconds).
inline constexpr double kFoldedCpuShare = 0.01;

// The first line is always "Verdict: <NAME> ...".
std::string render_diagnosis(const analysis::Diagnosis& diagnosis, const std::string& db_path,
                             const TerminalStyle& style, TextDetail detail);

// The process table (shared with other commands that list processes).
std::string render_process_table(const analysis::ProcessBreakdown& breakdown);

// The "Data quality" section of explain and stats: its heading, then one line per item (per item
// whose counter is not zero for kSummary) or one line saying nothing was lost.
std::string render_data_quality(const analysis::DataQualityReport& report,
                                const TerminalStyle& style, TextDetail detail);

}  // namespace causeway::report
