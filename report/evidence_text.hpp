#pragma once
// A piece of evidence in words (analysis/diagnose/evidence.hpp holds the kinds and numbers): the
// one wording that the explain text, the JSON `text` field and the MCP tools' text all use.

#include <string>

#include "analysis/diagnose/causal_chain.hpp"

namespace causeway::report {

// Evidence of the verdict's numbers, or any evidence that quotes nothing of a chain.
std::string evidence_text(const analysis::Evidence& evidence);
// Evidence of `chain`: its Python lines and its actor's name are quoted from the chain.
std::string evidence_text(const analysis::CausalChain& chain, const analysis::Evidence& evidence);

}  // namespace causeway::report
