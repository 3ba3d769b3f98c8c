#pragma once
// `causeway explain` in one call: verdict, ranked causal chains, per-process table, data
// quality and what the trace cannot prove. A plain value: cache it for a finished trace.

#include <string>
#include <vector>

#include "analysis/diagnose/causal_chain.hpp"
#include "analysis/diagnose/data_quality.hpp"
#include "analysis/diagnose/evidence_limits.hpp"
#include "analysis/diagnose/verdict.hpp"
#include "analysis/measure/process_breakdown.hpp"
#include "analysis/measure/rank_alignment.hpp"
#include "analysis/measure/trace_stats.hpp"
#include "analysis/model/trace_filter.hpp"
#include "analysis/model/trace_model.hpp"

namespace causeway::analysis {

struct DiagnosisOptions {
    TraceFilter filter;
    BreakdownOptions breakdown{.include_threads = false, .max_processes = 50};
};

struct GpuThread {
    std::int64_t pid = 0;
    std::int64_t tid = 0;
    std::string comm;
};

struct Diagnosis {
    SessionSummary session;
    TimeWindow range;
    Verdict verdict;
    std::vector<CausalChain> chains;     // one per root cause, largest time lost first
    std::vector<GpuThread> gpu_threads;  // the threads whose loop the shares refer to
    ProcessBreakdown processes;
    DataQualityReport data_quality;
    std::vector<EvidenceLimit> evidence_limits;
    // The ranks of each NCCL communicator of the trace, aligned by their collectives.
    std::vector<CommunicatorRanks> ranks;
};

Diagnosis diagnose(const TraceModel& model, const DiagnosisOptions& options);

}  // namespace causeway::analysis
