#pragma once
// The verdict for a run: one bottleneck class with the numbers behind it.

#include <string>
#include <vector>

#include "analysis/diagnose/causal_chain.hpp"
#include "analysis/diagnose/data_quality.hpp"
#include "analysis/measure/call_accounting.hpp"

namespace causeway::analysis {

// Fewer accounted CUDA calls than this cannot say anything about a loop.
inline constexpr std::int64_t kMinCallsForVerdict = 20;

struct Verdict {
    std::string name;     // INPUT-BOUND, CPU-CONTENDED, ..., HEALTHY, INSUFFICIENT-DATA
    std::string summary;  // one or two sentences
    std::vector<Evidence> numbers;
};

// `chains` ranked, largest time lost first. `scheduling_known` is false when the trace has no
// off-CPU intervals (then "nothing found" is not "healthy").
Verdict decide_verdict(const CallAccounting& accounting, const std::vector<CausalChain>& chains,
                       const DataQualityReport& quality, bool scheduling_known,
                       std::int64_t host_event_rows);

}  // namespace causeway::analysis
