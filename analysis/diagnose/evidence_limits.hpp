#pragma once
// What this trace cannot prove, said plainly next to the diagnosis: no scheduling data, or
// host events known only as counts (an imported trace) — and what those counts do suggest.

#include <string>
#include <vector>

#include "analysis/diagnose/process_roles.hpp"
#include "analysis/measure/call_accounting.hpp"
#include "analysis/model/trace_model.hpp"

namespace causeway::analysis {

std::vector<std::string> evidence_limits(const TraceModel& model, const Roles& roles,
                                         const CallAccounting& accounting);

}  // namespace causeway::analysis
