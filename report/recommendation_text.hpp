#pragma once
// A chain's recommendation in words: what to change, in which direction, and the numbers it
// rests on (analysis/diagnose/recommendation.hpp holds the kinds and numbers). The one wording that
// the explain text, the JSON `text` field and the MCP tools' text all use.

#include <string>

#include "analysis/diagnose/causal_chain.hpp"

namespace causeway::report {

// `chain` supplies the names a recommendation quotes (its actor, its competitors).
std::string recommendation_text(const analysis::CausalChain& chain,
                                const analysis::Recommendation& recommendation);

}  // namespace causeway::report
