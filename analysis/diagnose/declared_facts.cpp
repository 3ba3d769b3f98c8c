#include "analysis/diagnose/declared_facts.hpp"

#include <stdexcept>
#include <string>

#include "analysis/diagnose/diagnosis.hpp"

namespace causeway::analysis {
namespace {

using F = Fact;

// A slow op's numbers (chain_builders.hpp: slow_op_facts): the symptom of a chain with an op.
constexpr FactSet kSlowOpFacts = {F::kSlowCalls, F::kCalls, F::kThresholdNs,
                                  F::kP99Ns,     F::kP50Ns, F::kMaxNs};
// How long the GPU-driving thread slept between calls, for a chain whose actor woke it.
constexpr FactSet kSleepFacts = {F::kSleptNs, F::kSleptShare, F::kWakersUnrecorded};
// The CPU limit of the throttled group, where the recorder sampled it.
constexpr FactSet kLimitFacts = {F::kCgroup,      F::kCgroupVersion, F::kQuotaCpus,  F::kPeriodUs,
                                 F::kNrThrottled, F::kNrPeriods,     F::kThrottledNs};

// Throws when `facts` holds a fact `declared` does not list, or lacks one it always has.
void check(const DeclaredFacts& declared, const FactParams& facts, const std::string& holder) {
    for (const FactParam& p : facts) {
        if (!declared.declares(p.fact)) {
            throw std::logic_error(holder + " holds fact " + std::string(fact_name(p.fact)) +
                                   ", which its kind does not declare (declared_facts.cpp)");
        }
    }
    for (std::size_t k = 0; k <= static_cast<std::size_t>(Fact::kLast); ++k) {
        const auto f = static_cast<Fact>(k);
        if (declared.always.contains(f) && find_fact(facts, f) == nullptr) {
            throw std::logic_error(holder + " lacks fact " + std::string(fact_name(f)) +
                                   ", which its kind always has (declared_facts.cpp)");
        }
    }
}

const FactParam* read(const DeclaredFacts& declared, const FactParams& facts, Fact f,
                      const std::string& holder_kind) {
    if (!declared.declares(f)) {
        throw std::logic_error("fact " + std::string(fact_name(f)) + " read from " + holder_kind +
                               ", which never has it (declared_facts.cpp)");
    }
    return find_fact(facts, f);
}

std::string evidence_holder(const Evidence& e) {
    return "evidence " + e.key;
}
std::string recommendation_holder(const Recommendation& r) {
    return std::string("recommendation ") + recommendation_kind_name(r.kind);
}
std::string chain_holder(const CausalChain& chain) {
    return std::string("the facts of a ") + verdict_class_name(chain.root_cause_class) + " chain";
}
std::string verdict_holder(const Verdict& v) {
    return "the verdict's facts for reason " + std::to_string(static_cast<int>(v.reason));
}
std::string limit_holder(const EvidenceLimit& limit) {
    return "evidence limit " + std::to_string(static_cast<int>(limit.kind));
}

}  // namespace

DeclaredFacts declared_facts(EvidenceKind kind) {
    switch (kind) {
        case EvidenceKind::kSyncNotPreemptedShare:
            return {.always = {F::kLostNs, F::kSpanNs, F::kOncpuNs, F::kBlockedNs}};
        case EvidenceKind::kCopyShare:
            return {.always = {F::kLostNs, F::kSpanNs}};
        case EvidenceKind::kSmallCopiesShare:
            return {.always = {F::kSmallCopyBytes}};
        case EvidenceKind::kAllocOpTime:
            return {.always = {F::kOp, F::kCalls, F::kP50Ns}};
        case EvidenceKind::kFirstCall:
            return {.always = {F::kOp, F::kTsNs}};
        case EvidenceKind::kSlowCallsRunnableWaitingShare:
            return {.always = {F::kSlowCalls, F::kSlowNs, F::kBlockedShare}};
        case EvidenceKind::kRunnableTreeThreads:
            return {.always = {F::kCpus, F::kDuringSlowCalls}};
        case EvidenceKind::kPageAllocsRate:
            return {.always = {F::kOverallPerS, F::kDuringSlowCalls}};
        case EvidenceKind::kSystemCpuBusy:
            return {.always = {F::kProcsRunning}};
        case EvidenceKind::kDataLoaderWorkersOverRun:
            return {.always = {F::kCpus, F::kWorkersSeen}};
        case EvidenceKind::kCpusAllowed:
            return {.always = {F::kCpus, F::kRunnableThreads}};
        case EvidenceKind::kCpuBusyOfCpus:
        case EvidenceKind::kDataLoaderWorkers:
            return {.always = {F::kCpus}};
        case EvidenceKind::kBlockedBetweenCallsShare:
            return {.always = {F::kSpanNs, F::kOncpuShare, F::kInCallsShare}};
        case EvidenceKind::kLongWaits:
            return {.always = {F::kMinNs, F::kAverageNs}};
        case EvidenceKind::kWakerRunnableWaiting:
            // The thread that had the waker's CPU most, where one did.
            return {.always = {F::kWaitsShare}, .where_known = {F::kBehindComm, F::kBehindTid}};
        case EvidenceKind::kRankArrivedLastShare:
            return {.always = {F::kRank, F::kCollectives, F::kLateAvgNs}};
        case EvidenceKind::kLateRankCauseShare:
            return {.always = {F::kRank, F::kCause}};
        case EvidenceKind::kGainMayBeSmall:
            return {.always = {F::kDrains, F::kDrainsWaited}};
        case EvidenceKind::kLoopCudaCalls:
        case EvidenceKind::kLoopSpan:
        case EvidenceKind::kLoopInCudaShare:
        case EvidenceKind::kLoopSyncShare:
        case EvidenceKind::kLoopCopyShare:
        case EvidenceKind::kLoopOncpuBetweenCallsShare:
        case EvidenceKind::kLoopBlockedBetweenCallsShare:
        case EvidenceKind::kLoopRunnableWaitingShare:
        case EvidenceKind::kSyncRunnableWaitingShare:
        case EvidenceKind::kCpuBusyDuringLoop:
        case EvidenceKind::kPageableBytesShare:
        case EvidenceKind::kCopyThroughput:
        case EvidenceKind::kTreePreemptedShare:
        case EvidenceKind::kOffcpuReasonUnknown:
        case EvidenceKind::kGpuThreadLostCpuAt:
        case EvidenceKind::kGpuThreadWaitsAt:
        case EvidenceKind::kGpuThreadSlowCallsAt:
        case EvidenceKind::kActorSpentCpuAt:
        case EvidenceKind::kActorHeldGilAt:
        case EvidenceKind::kLateRankWasAt:
            break;  // the value alone
    }
    return {};
}

DeclaredFacts declared_facts(RecommendationKind kind) {
    switch (kind) {
        case RecommendationKind::kFewerWorkers:
            return {.always = {F::kWorkers, F::kCpus, F::kNumWorkers}};
        case RecommendationKind::kWorkersYieldCpu:
            return {.always = {F::kNumWorkers}};
        case RecommendationKind::kPersistentWorkers:
            return {.always = {F::kWorkerGenerations}};
        case RecommendationKind::kMoreWorkers:
            return {.always = {F::kNumWorkers, F::kMoreNumWorkers, F::kIdleCpus, F::kCpus}};
        case RecommendationKind::kWorkersOutnumberCpus:
            return {.always = {F::kNumWorkers, F::kIdleCpus, F::kCpus}};
        case RecommendationKind::kFasterDeviceWork:
            return {.always = {F::kHostCriticalShare}};
        case RecommendationKind::kReusePinnedBuffers:
            return {.always = {F::kPinnedShare}};
        case RecommendationKind::kPinnedCopies:
            // The rate pinned copies would reach, where the trace holds the GPU's link.
            return {.where_known = {F::kPinnedBytesPerS, F::kLinkMts, F::kLinkWidth}};
        case RecommendationKind::kBatchSmallCopies:
            return {.always = {F::kSmallShare, F::kCopies}};
        case RecommendationKind::kRaiseCpuLimit:
            // The quota where sampled, the CPUs the tree used where measured.
            return {.where_known = {F::kQuotaCpus, F::kCpusUsedUnthrottled}};
        case RecommendationKind::kShorterSwitchInterval:
            return {.always = {F::kWaitNs, F::kHandovers}};
        case RecommendationKind::kWiderCpuset:
            return {.always = {F::kCpusAllowed, F::kCpus}};
        case RecommendationKind::kLateRankFirst:
        case RecommendationKind::kBalanceRanks:
            return {.always = {F::kRank}};
        case RecommendationKind::kIndexInMemory:
        case RecommendationKind::kStopCompetitors:
        case RecommendationKind::kLimitIntraOpThreads:
        case RecommendationKind::kOwnCore:
        case RecommendationKind::kBackgroundLoading:
        case RecommendationKind::kCheaperLoading:
        case RecommendationKind::kDataInMemory:
        case RecommendationKind::kRemoveSleep:
        case RecommendationKind::kPrefetchNetworkInput:
        case RecommendationKind::kFasterProducer:
        case RecommendationKind::kFasterOutsideProcess:
        case RecommendationKind::kShorterCriticalSection:
        case RecommendationKind::kAvoidGil:
        case RecommendationKind::kReuseDeviceBuffers:
        case RecommendationKind::kFewerBytes:
        case RecommendationKind::kSteadyStateWindow:
        case RecommendationKind::kLazyModuleLoading:
        case RecommendationKind::kMoveHostWork:
        case RecommendationKind::kCheaperHostWork:
        case RecommendationKind::kGilWorkToProcess:
        case RecommendationKind::kReleaseGil:
            break;  // worded from the chain's actor and competitors
    }
    return {};
}

DeclaredFacts declared_facts(VerdictClass chain_class) {
    switch (chain_class) {
        case VerdictClass::kInputBound:
        case VerdictClass::kLockContended:
            return {.always = kSleepFacts};
        case VerdictClass::kGilContended:
            return {.always = {F::kSleptNs, F::kSleptShare, F::kHandovers}};
        case VerdictClass::kCpuContended:
            return {.where_known = kSlowOpFacts};
        case VerdictClass::kCpuThrottled:
            return {.where_known = kSlowOpFacts | kLimitFacts};
        case VerdictClass::kGpuBound:
            // The op most of the synchronisation time went to, where one did.
            return {.always = {F::kDeviceBusyShare, F::kDeviceBusyMinShare, F::kSyncMinShare},
                    .where_known = {F::kOpP50Ns, F::kOpCalls}};
        case VerdictClass::kTransferBound:
            return {
                .always = {F::kCopies, F::kCopyBytes, F::kThroughputBytesPerS, F::kPageableShare}};
        case VerdictClass::kAllocationChurn:
            return {.always = {F::kCalls}};
        case VerdictClass::kColdStart:
            return {.always = {F::kOps, F::kSpanNs}};
        case VerdictClass::kCollectiveWait:
            return {.always = {F::kRank, F::kArrivedLast, F::kCollectives, F::kLateAvgNs,
                               F::kLateCause, F::kLateCauseShare}};
        case VerdictClass::kHostBound:
        case VerdictClass::kHealthy:
        case VerdictClass::kInsufficientData:
            break;
    }
    return {};
}

DeclaredFacts declared_facts(VerdictReason reason) {
    switch (reason) {
        case VerdictReason::kCommandNotRun:
            return {.always = {F::kWhy}};
        case VerdictReason::kNoCudaCalls:
            return {.always = {F::kHostEventRows}};
        case VerdictReason::kCallsLeftOut:
            return {.always = {F::kLeftOut}};
        case VerdictReason::kTooFewCalls:
            return {.always = {F::kCalls, F::kMinCalls}};
        case VerdictReason::kNoCause:
            return {.always = {F::kMinShare}};
        case VerdictReason::kTopChain:
        case VerdictReason::kNoSchedulingData:
            break;
    }
    return {};
}

DeclaredFacts declared_facts(EvidenceLimitKind kind) {
    switch (kind) {
        case EvidenceLimitKind::kImportedCountsOnly:
            // The rates where buckets with and without slow calls both exist.
            return {.always = {F::kSource, F::kSchedSwitches},
                    .where_known = {F::kSwitchesPerSSlow, F::kSwitchesPerSOther}};
        case EvidenceLimitKind::kNoOffcpu:
            break;
    }
    return {};
}

const FactParam* declared_fact(const Evidence& holder, Fact f) {
    return read(declared_facts(holder.kind), holder.params, f, evidence_holder(holder));
}
const FactParam* declared_fact(const Recommendation& holder, Fact f) {
    return read(declared_facts(holder.kind), holder.params, f, recommendation_holder(holder));
}
const FactParam* declared_fact(const CausalChain& holder, Fact f) {
    return read(declared_facts(holder.root_cause_class), holder.facts, f, chain_holder(holder));
}
const FactParam* declared_fact(const Verdict& holder, Fact f) {
    return read(declared_facts(holder.reason), holder.facts, f, verdict_holder(holder));
}
const FactParam* declared_fact(const EvidenceLimit& holder, Fact f) {
    return read(declared_facts(holder.kind), holder.facts, f, limit_holder(holder));
}

void check_declared_facts(const Diagnosis& diagnosis) {
    auto check_evidence = [](const std::vector<Evidence>& evidence) {
        for (const Evidence& e : evidence) {
            check(declared_facts(e.kind), e.params, evidence_holder(e));
        }
    };
    for (const CausalChain& chain : diagnosis.chains) {
        check(declared_facts(chain.root_cause_class), chain.facts, chain_holder(chain));
        check_evidence(chain.evidence);
        for (const Recommendation& r : chain.recommendations) {
            check(declared_facts(r.kind), r.params, recommendation_holder(r));
        }
    }
    check(declared_facts(diagnosis.verdict.reason), diagnosis.verdict.facts,
          verdict_holder(diagnosis.verdict));
    check_evidence(diagnosis.verdict.numbers);
    for (const EvidenceLimit& limit : diagnosis.evidence_limits) {
        check(declared_facts(limit.kind), limit.facts, limit_holder(limit));
    }
}

}  // namespace causeway::analysis
