#pragma once
// What this trace cannot prove, said plainly next to the diagnosis: no scheduling data, or
// host events known only as counts (an imported trace) — and what those counts do suggest.

#include <string>
#include <vector>

#include "analysis/call_accounting.hpp"
#include "analysis/process_roles.hpp"
#include "analysis/trace_model.hpp"

namespace causeway::analysis {

std::vector<std::string> evidence_limits(const TraceModel& model, const Roles& roles,
                                         const CallAccounting& accounting);

}  // namespace causeway::analysis
