#include "report/verdict_text.hpp"

#include "analysis/diagnose/declared_facts.hpp"
#include "report/chain_text.hpp"
#include "report/human_units.hpp"

namespace causeway::report {
namespace {

using analysis::Fact;
using analysis::fact;

std::string reason_text(const analysis::Diagnosis& d) {
    const analysis::Verdict& v = d.verdict;
    switch (v.reason) {
        case analysis::VerdictReason::kCommandNotRun:
            return "Nothing to diagnose: " + fact<Fact::kWhy>(v) +
                   ". Check the command and record again.";
        case analysis::VerdictReason::kNoCudaCalls: {
            std::int64_t rows = fact<Fact::kHostEventRows>(v);
            return rows > 0
                       ? "No CUDA calls were recorded (the trace holds " + std::to_string(rows) +
                             " host-event rows only): the CUDA library was not found or not "
                             "used. Check the probe table and run `causeway check`."
                       : "The trace holds no CUDA calls and no host events: nothing to "
                         "diagnose. Record a run of the workload.";
        }
        case analysis::VerdictReason::kCallsLeftOut:
            return std::to_string(fact<Fact::kLeftOut>(v)) +
                   " CUDA calls were recorded, but none could be analysed: they name threads, "
                   "processes or ops that are not in the file, or hold impossible times (see "
                   "Data quality). The trace is damaged or was edited: re-record it, or restore "
                   "an intact copy.";
        case analysis::VerdictReason::kTooFewCalls:
            return "Only " + std::to_string(fact<Fact::kCalls>(v)) +
                   " CUDA calls were recorded: too few to tell a bottleneck (at least " +
                   std::to_string(fact<Fact::kMinCalls>(v)) + " needed). Record a longer run.";
        case analysis::VerdictReason::kTopChain: {
            if (d.chains.empty()) {
                return "";
            }
            const analysis::CausalChain& top = d.chains.front();
            if (top.critical_path) {
                return root_cause_text(top) + " It cost " + critical_path_text(*top.critical_path) +
                       ".";
            }
            return root_cause_text(top) + " It cost " + format_duration(top.time_lost_ns) + " (" +
                   format_percent(top.time_lost_share) + " of the loop).";
        }
        case analysis::VerdictReason::kNoSchedulingData:
            return "No copy, synchronisation, allocation or start-up cost stands out, but without "
                   "scheduling data CPU contention and input waits cannot be judged.";
        case analysis::VerdictReason::kNoCause:
            break;
    }
    return "No cause costs " + format_percent(fact<Fact::kMinShare>(v)) +
           " or more of the loop: the host keeps the GPU fed.";
}

}  // namespace

std::string verdict_summary(const analysis::Diagnosis& d) {
    std::string summary = reason_text(d);
    if (d.data_quality.data_loss) {
        summary += " Warning: " + std::to_string(d.data_quality.events_lost) +
                   " events were lost while recording (see data quality); numbers may be low.";
    }
    return summary;
}

std::string evidence_limit_text(const analysis::EvidenceLimit& limit) {
    switch (limit.kind) {
        case analysis::EvidenceLimitKind::kImportedCountsOnly: {
            std::int64_t switches = fact<Fact::kSchedSwitches>(limit);
            std::string hint =
                switches == 0
                    ? "it holds no sched_switch counts for the training process either, so CPU "
                      "contention can be neither shown nor ruled out"
                    : std::to_string(switches) +
                          " sched_switch events are counted for the training process";
            if (analysis::has_fact<Fact::kSwitchesPerSSlow>(limit)) {
                double during = fact<Fact::kSwitchesPerSSlow>(limit);
                double other = fact<Fact::kSwitchesPerSOther>(limit);
                hint += "; they suggest " +
                        std::string(during > 2 * other ? "switching is much more frequent"
                                                       : "switching is no more frequent") +
                        " in the buckets with slow calls (" + format_rate(during) + " vs " +
                        format_rate(other) + " elsewhere), which is a hint, not proof";
            }
            return "This trace was imported (" + fact<Fact::kSource>(limit) +
                   ") without off-CPU intervals: counts per time bucket cannot prove that a given "
                   "call was preempted or blocked; " +
                   hint + ".";
        }
        case analysis::EvidenceLimitKind::kNoOffcpu:
            break;
    }
    return "No off-CPU intervals were recorded: CPU contention and input waits can be neither "
           "proven nor ruled out. Record with the scheduler tracepoints attached (see "
           "`causeway check`).";
}

std::vector<std::string> evidence_limit_texts(const std::vector<analysis::EvidenceLimit>& limits) {
    std::vector<std::string> texts;
    for (const auto& limit : limits) {
        texts.push_back(evidence_limit_text(limit));
    }
    return texts;
}

}  // namespace causeway::report
