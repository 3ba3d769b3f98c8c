#include "analysis/diagnose/verdict.hpp"

#include <algorithm>

#include "analysis/diagnose/chain_builders.hpp"
#include "analysis/model/saturating.hpp"

namespace causeway::analysis {
namespace {

double share(std::int64_t ns, std::int64_t span_ns) {
    return span_ns > 0 ? static_cast<double>(ns) / static_cast<double>(span_ns) : 0.0;
}

std::vector<Evidence> loop_numbers(const CallAccounting& acc) {
    std::int64_t span = acc.span_ns;
    std::int64_t sync = acc.by_category[static_cast<std::size_t>(OpCategory::kSync)].total_ns;
    std::int64_t copy = acc.by_category[static_cast<std::size_t>(OpCategory::kCopy)].total_ns;
    std::int64_t runnable =
        saturating_add(acc.in_calls.runnable_waiting_ns(), acc.gaps.runnable_waiting_ns());
    return {
        make_evidence(EvidenceKind::kLoopCudaCalls, static_cast<double>(acc.accounted_calls)),
        make_evidence(EvidenceKind::kLoopSpan, static_cast<double>(span)),
        make_evidence(EvidenceKind::kLoopInCudaShare, share(acc.in_calls.total_ns, span)),
        make_evidence(EvidenceKind::kLoopSyncShare, share(sync, span)),
        make_evidence(EvidenceKind::kLoopCopyShare, share(copy, span)),
        make_evidence(EvidenceKind::kLoopOncpuBetweenCallsShare, share(acc.gaps.oncpu_ns(), span)),
        make_evidence(EvidenceKind::kLoopBlockedBetweenCallsShare,
                      share(acc.gaps.blocked_ns, span)),
        make_evidence(EvidenceKind::kLoopRunnableWaitingShare, share(runnable, span)),
    };
}

}  // namespace

bool worth_removing(const CausalChain& chain) {
    return !chain.critical_path || chain.critical_path->share >= kChainMinShare;
}

bool may_gain_little(const CausalChain& chain) {
    // A speed-up s saves 1 - 1/s of the loop.
    return chain.critical_path && 1.0 - 1.0 / chain.critical_path->speedup_low < kChainMinShare;
}

Verdict decide_verdict(const CallAccounting& accounting, const std::vector<CausalChain>& chains,
                       const DataQualityReport& quality, bool scheduling_known,
                       std::int64_t host_event_rows) {
    Verdict v;
    auto never_ran = std::find_if(quality.items.begin(), quality.items.end(), [](const auto& item) {
        return item.is(tracedb::DataQualityCounter::kCommandNotStarted) ||
               item.is(tracedb::DataQualityCounter::kCommandNeverRan);
    });
    // Calls the loader left out: naming rows not in the file, or with impossible times.
    std::int64_t left_out = 0;
    for (const DataQualityItem& item : quality.items) {
        if (item.is(tracedb::DataQualityCounter::kOrphanCudaCalls) ||
            item.is(tracedb::DataQualityCounter::kImpossibleCudaCalls)) {
            add_to(left_out, item.value);
        }
    }
    if (accounting.accounted_calls == 0 && never_ran != quality.items.end()) {
        v.reason = VerdictReason::kCommandNotRun;
        v.facts = {{Fact::kWhy, never_ran->description}};
    } else if (accounting.accounted_calls == 0 && left_out > 0) {
        v.reason = VerdictReason::kCallsLeftOut;
        v.facts = {{Fact::kLeftOut, left_out}};
    } else if (accounting.accounted_calls == 0) {
        v.reason = VerdictReason::kNoCudaCalls;
        v.facts = {{Fact::kHostEventRows, host_event_rows}};
    } else if (accounting.accounted_calls < kMinCallsForVerdict) {
        v.reason = VerdictReason::kTooFewCalls;
        v.facts = {{Fact::kCalls, accounting.accounted_calls},
                   {Fact::kMinCalls, kMinCallsForVerdict}};
    } else if (!chains.empty() && worth_removing(chains.front())) {
        v.verdict_class = chains.front().root_cause_class;
        v.reason = VerdictReason::kTopChain;
    } else if (!scheduling_known) {
        v.reason = VerdictReason::kNoSchedulingData;
    } else {
        v.verdict_class = VerdictClass::kHealthy;
        v.reason = VerdictReason::kNoCause;
        v.facts = {{Fact::kMinShare, kChainMinShare}};
    }
    if (accounting.accounted_calls > 0) {
        v.numbers = loop_numbers(accounting);
    }
    return v;
}

}  // namespace causeway::analysis
