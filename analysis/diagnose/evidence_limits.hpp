#pragma once
// What this trace cannot prove, said plainly next to the diagnosis: no scheduling data, or
// host events known only as counts (an imported trace) — and what those counts do suggest.
// Facts only; report/evidence_limits_text words them.

#include <vector>

#include "analysis/diagnose/fact_param.hpp"
#include "analysis/diagnose/process_roles.hpp"
#include "analysis/measure/call_accounting.hpp"
#include "analysis/model/trace_model.hpp"

namespace causeway::analysis {

enum class EvidenceLimitKind {
    // An imported trace without off-CPU intervals: counts per time bucket cannot prove that a
    // call was preempted or blocked. {source; sched_switches: the training process's
    // sched_switch count (0: none); where buckets with and without slow calls both exist,
    // switches_per_s_slow and switches_per_s_other: their rates}
    kImportedCountsOnly,
    // A recorded trace with CUDA calls but no off-CPU intervals.
    kNoOffcpu,
    kLast = kNoOffcpu,  // the words are checked for every kind up to this one (report/)
};

struct EvidenceLimit {
    EvidenceLimitKind kind = EvidenceLimitKind::kNoOffcpu;
    FactParams facts{};
};

std::vector<EvidenceLimit> evidence_limits(const TraceModel& model, const Roles& roles,
                                           const CallAccounting& accounting);

}  // namespace causeway::analysis
