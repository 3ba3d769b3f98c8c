#include "analysis/diagnose/evidence_limits.hpp"

#include "analysis/human_units.hpp"
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
std::string switch_count_hint(const TraceModel& model, const Roles& roles,
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
    if (total == 0) {
        return "it holds no sched_switch counts for the training process either, so CPU "
               "contention can be neither shown nor ruled out";
    }
    std::string hint =
        std::to_string(total) + " sched_switch events are counted for the training process";
    if (during_ns > 0 && other_ns > 0) {
        double during = during_count * 1e9 / during_ns;
        double other = other_count * 1e9 / other_ns;
        hint += "; they suggest " +
                std::string(during > 2 * other ? "switching is much more frequent"
                                               : "switching is no more frequent") +
                " in the buckets with slow calls (" + format_rate(during) + " vs " +
                format_rate(other) + " elsewhere), which is a hint, not proof";
    }
    return hint;
}

}  // namespace

std::vector<std::string> evidence_limits(const TraceModel& model, const Roles& roles,
                                         const CallAccounting& accounting) {
    std::vector<std::string> limits;
    if (has_offcpu(model)) {
        return limits;
    }
    if (model.session.imported()) {
        limits.push_back("This trace was imported (" + model.session.source +
                         ") without off-CPU intervals: counts per time bucket cannot prove "
                         "that a given call was preempted or blocked; " +
                         switch_count_hint(model, roles, accounting) + ".");
    } else if (accounting.accounted_calls > 0) {
        limits.push_back(
            "No off-CPU intervals were recorded: CPU contention and input waits can be neither "
            "proven nor ruled out. Record with the scheduler tracepoints attached (see "
            "`causeway check`).");
    }
    return limits;
}

}  // namespace causeway::analysis
