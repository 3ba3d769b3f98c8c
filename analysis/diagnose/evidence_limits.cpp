#include "analysis/diagnose/evidence_limits.hpp"

#include "analysis/measure/system_context.hpp"

namespace causeway::analysis {
namespace {

bool has_offcpu(const TraceModel& model) {
    for (const auto& list : model.offcpu_by_thread) {
        if (!list.empty()) {
            return true;
        }
    }
    return false;
}

// sched_switch counts of the training process (or of unknown processes), split into buckets
// that overlap slow calls and the others.
FactParams switch_count_facts(const TraceModel& model, const Roles& roles,
                              const CallAccounting& accounting) {
    double during_count = 0, during_ns = 0, other_count = 0, other_ns = 0;
    std::int64_t total = 0;
    for (const auto& e : model.event_counts) {
        if (e.event != "sched_switch" || e.bucket_dur_ns <= 0 ||
            (e.process_index >= 0 && e.process_index != roles.training_process)) {
            continue;
        }
        total += e.count;
        bool slow =
            overlap_with(accounting.slow_intervals, e.bucket_ns, e.bucket_ns + e.bucket_dur_ns) > 0;
        (slow ? during_count : other_count) += static_cast<double>(e.count);
        (slow ? during_ns : other_ns) += static_cast<double>(e.bucket_dur_ns);
    }
    FactParams facts = {{Fact::kSource, model.session.source}, {Fact::kSchedSwitches, total}};
    if (total > 0 && during_ns > 0 && other_ns > 0) {
        facts.push_back({Fact::kSwitchesPerSSlow, during_count * 1e9 / during_ns});
        facts.push_back({Fact::kSwitchesPerSOther, other_count * 1e9 / other_ns});
    }
    return facts;
}

}  // namespace

std::vector<EvidenceLimit> evidence_limits(const TraceModel& model, const Roles& roles,
                                           const CallAccounting& accounting) {
    std::vector<EvidenceLimit> limits;
    if (has_offcpu(model)) {
        return limits;
    }
    if (model.session.imported()) {
        limits.push_back(
            {EvidenceLimitKind::kImportedCountsOnly, switch_count_facts(model, roles, accounting)});
    } else if (accounting.accounted_calls > 0) {
        limits.push_back({EvidenceLimitKind::kNoOffcpu});
    }
    return limits;
}

}  // namespace causeway::analysis
