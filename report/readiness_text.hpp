#pragma once
// `causeway check` for a person: can this machine record, and what is missing.

#include <string>

#include "collector/discover/readiness.hpp"
#include "report/terminal_style.hpp"

namespace causeway::report {

std::string render_readiness(const collector::Readiness& readiness, const TerminalStyle& style);

}  // namespace causeway::report
