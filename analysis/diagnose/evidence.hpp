#pragma once
// One measured fact behind a chain or the verdict: what it is (a kind, whose key and unit
// programs read), its value and the numbers its words rest on. The words are the report layer's
// (report/evidence_text.hpp). To add an item: a kind here and in evidence_key_unit(), its facts
// in declared_facts.cpp, its words in report/evidence_text.cpp, then regenerate the golden
// outputs that show it.

#include <string>

#include "analysis/diagnose/fact_param.hpp"

namespace causeway::analysis {

enum class EvidenceKind {
    // The verdict's numbers: the loop of the GPU-driving threads.
    kLoopCudaCalls,                 // value: CUDA calls accounted
    kLoopSpan,                      // value: the loop's span (ns)
    kLoopInCudaShare,               // shares of the loop: inside CUDA calls,
    kLoopSyncShare,                 // in synchronisation,
    kLoopCopyShare,                 // in copies,
    kLoopOncpuBetweenCallsShare,    // on CPU between calls,
    kLoopBlockedBetweenCallsShare,  // asleep between calls,
    kLoopRunnableWaitingShare,      // runnable but not running
    // GPU-BOUND
    kSyncNotPreemptedShare,     // {lost_ns, span_ns, oncpu_ns, blocked_ns}
    kSyncRunnableWaitingShare,  // inside the synchronisations
    kCpuBusyDuringLoop,         // system CPU use (pct)
    // TRANSFER-BOUND
    kCopyShare,           // {lost_ns, span_ns}
    kPageableBytesShare,  // of the copied bytes
    kCopyThroughput,      // inside the copy calls (bytes/s)
    kSmallCopiesShare,    // {small_copy_bytes}: copies below that size
    // ALLOCATION-CHURN: one per op {op, calls, p50_ns}; value: its total time (ns)
    kAllocOpTime,
    // COLD-START: one per op {op, ts_ns}; value: its first call's duration (ns)
    kFirstCall,
    // CPU-CONTENDED
    kSlowCallsRunnableWaitingShare,  // {slow_calls, slow_ns, blocked_share}
    kRunnableTreeThreads,            // {cpus, during_slow_calls: 0/1}
    kPageAllocsRate,                 // {overall_per_s, during_slow_calls: 0/1}
    kSystemCpuBusy,                  // {procs_running}
    kDataLoaderWorkersOverRun,       // {cpus, workers_seen}
    kCpusAllowed,                    // {cpus, runnable_threads}: a cpuset or affinity narrows it
    // INPUT-BOUND and LOCK-CONTENDED
    kCpuBusyOfCpus,             // {cpus}
    kTreePreemptedShare,        // of the time the tree's threads were runnable
    kDataLoaderWorkers,         // {cpus}
    kBlockedBetweenCallsShare,  // {span_ns, oncpu_share, in_calls_share}
    kLongWaits,                 // {min_ns, average_ns}
    // Any actor chain: its waker was itself runnable but not running
    // {waits_share, behind_comm and behind_tid when one thread had its CPU most}
    kWakerRunnableWaiting,
    // Off-CPU intervals without a reason (data quality), value: how many
    kOffcpuReasonUnknown,
    // Python lines (the chain's gpu_thread_line / actor_line): the GPU-driving thread lost its
    // CPU at it, waits at it, makes its slow CUDA calls at it; the actor spent the CPU it took
    // there
    kGpuThreadLostCpuAt,
    kGpuThreadWaitsAt,
    kGpuThreadSlowCallsAt,
    kActorSpentCpuAt,
    // The GIL holder was at it when it handed the GIL to the GPU-driving thread
    kActorHeldGilAt,
    // COLLECTIVE-WAIT: the share of the collectives the late rank arrived last at {rank,
    // collectives, late_avg_ns}; the share of its lateness that went to one cause on its
    // GPU-driving
    // thread {rank, cause: a cause kind's name, or 'cuda_calls'}
    kRankArrivedLastShare,
    kLateRankCauseShare,
    // COLLECTIVE-WAIT: the late rank was at its actor_line when it left its CPU while late
    kLateRankWasAt,
    // Any chain whose predicted gain may save less than kChainMinShare at its low end: value, that
    // speed-up; of the GPU threads' drains (synchronisations), how many there were and how many
    // waited for the device and so measured its work {drains, drains_waited}
    kGainMayBeSmall,
    kLast = kGainMayBeSmall,  // report/'s words are checked for every kind up to this one
};

struct Evidence {
    EvidenceKind kind = EvidenceKind::kLoopCudaCalls;
    // Stable (programs read it): 'sync_share', 'alloc_ns:cudaMalloc', ...
    std::string key;
    double value = 0;
    std::string unit;  // 'ns', 'ratio', 'count', 'bytes', 'per_s', 'bytes_per_s', 'pct'
    FactParams params{};
};

// The key and unit of `kind`; a per-op kind's key is completed with ':' and its `op` parameter,
// the late rank's cause share with ':' and its `cause` ('late_rank_cause_share:timer').
Evidence make_evidence(EvidenceKind kind, double value, FactParams params = {});

}  // namespace causeway::analysis
