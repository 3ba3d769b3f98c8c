#pragma once
// The verdict in words: its summary (one or two sentences, the top chain's root cause with what it
// cost, and a warning where events were lost) and the limits of the evidence. The one wording that
// the explain text, the JSON `summary`/`evidence_limits` fields, the MCP tools' text and the fleet
// summary all use.

#include <string>
#include <vector>

#include "analysis/diagnose/diagnosis.hpp"

namespace causeway::report {

std::string verdict_summary(const analysis::Diagnosis& diagnosis);

// "No off-CPU intervals were recorded: ..."
std::string evidence_limit_text(const analysis::EvidenceLimit& limit);
std::vector<std::string> evidence_limit_texts(const std::vector<analysis::EvidenceLimit>& limits);

}  // namespace causeway::report
