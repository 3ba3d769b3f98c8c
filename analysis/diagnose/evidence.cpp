#include "analysis/diagnose/evidence.hpp"

#include <utility>

#include "analysis/diagnose/declared_facts.hpp"

namespace causeway::analysis {
namespace {

struct KeyUnit {
    const char* key;
    const char* unit;
};

// The one table of evidence keys and units.
KeyUnit evidence_key_unit(EvidenceKind kind) {
    switch (kind) {
        case EvidenceKind::kLoopCudaCalls:
            return {"cuda_calls", "count"};
        case EvidenceKind::kLoopSpan:
            return {"loop_ns", "ns"};
        case EvidenceKind::kLoopInCudaShare:
            return {"in_cuda_share", "ratio"};
        case EvidenceKind::kLoopSyncShare:
        case EvidenceKind::kSyncNotPreemptedShare:
            return {"sync_share", "ratio"};
        case EvidenceKind::kLoopCopyShare:
        case EvidenceKind::kCopyShare:
            return {"copy_share", "ratio"};
        case EvidenceKind::kLoopOncpuBetweenCallsShare:
            return {"between_calls_oncpu_share", "ratio"};
        case EvidenceKind::kLoopBlockedBetweenCallsShare:
        case EvidenceKind::kBlockedBetweenCallsShare:
            return {"between_calls_blocked_share", "ratio"};
        case EvidenceKind::kLoopRunnableWaitingShare:
            return {"runnable_waiting_share", "ratio"};
        case EvidenceKind::kSyncRunnableWaitingShare:
            return {"sync_runnable_waiting_share", "ratio"};
        case EvidenceKind::kCpuBusyDuringLoop:
        case EvidenceKind::kSystemCpuBusy:
        case EvidenceKind::kCpuBusyOfCpus:
            return {"cpu_busy_pct", "pct"};
        case EvidenceKind::kPageableBytesShare:
            return {"pageable_bytes_share", "ratio"};
        case EvidenceKind::kCpusAllowed:
            return {"cpus_allowed", "count"};
        case EvidenceKind::kCopyThroughput:
            return {"copy_throughput", "bytes_per_s"};
        case EvidenceKind::kSmallCopiesShare:
            return {"small_copies_share", "ratio"};
        case EvidenceKind::kAllocOpTime:
            return {"alloc_ns", "ns"};
        case EvidenceKind::kFirstCall:
            return {"first_call_ns", "ns"};
        case EvidenceKind::kSlowCallsRunnableWaitingShare:
            return {"slow_calls_runnable_waiting_share", "ratio"};
        case EvidenceKind::kRunnableTreeThreads:
            return {"runnable_tree_threads", "count"};
        case EvidenceKind::kPageAllocsRate:
            return {"page_allocs_per_s", "per_s"};
        case EvidenceKind::kDataLoaderWorkersOverRun:
        case EvidenceKind::kDataLoaderWorkers:
            return {"dataloader_workers", "count"};
        case EvidenceKind::kTreePreemptedShare:
            return {"tree_preempted_share", "ratio"};
        case EvidenceKind::kLongWaits:
            return {"long_waits", "count"};
        case EvidenceKind::kWakerRunnableWaiting:
            return {"waker_runnable_waiting_ns", "ns"};
        case EvidenceKind::kOffcpuReasonUnknown:
            return {"offcpu_reason_unknown", "count"};
        case EvidenceKind::kRankArrivedLastShare:
            return {"rank_arrived_last_share", "ratio"};
        case EvidenceKind::kLateRankCauseShare:
            return {"late_rank_cause_share", "ratio"};
        case EvidenceKind::kGainMayBeSmall:
            return {"predicted_speedup_low", "ratio"};
        case EvidenceKind::kGpuThreadLostCpuAt:
        case EvidenceKind::kGpuThreadWaitsAt:
        case EvidenceKind::kGpuThreadSlowCallsAt:
            return {"gpu_thread_python_line", "ratio"};
        case EvidenceKind::kActorSpentCpuAt:
        case EvidenceKind::kActorHeldGilAt:
        case EvidenceKind::kLateRankWasAt:
            break;
    }
    return {"actor_python_line", "ratio"};
}

}  // namespace

Evidence make_evidence(EvidenceKind kind, double value, FactParams params) {
    KeyUnit key_unit = evidence_key_unit(kind);
    Evidence e{kind, key_unit.key, value, key_unit.unit, std::move(params)};
    if (kind == EvidenceKind::kAllocOpTime || kind == EvidenceKind::kFirstCall) {
        e.key += ":" + fact<Fact::kOp>(e);
    } else if (kind == EvidenceKind::kLateRankCauseShare) {
        e.key += ":" + fact<Fact::kCause>(e);
    }
    return e;
}

}  // namespace causeway::analysis
