#pragma once
// The verdict for a run: one bottleneck class, why it was given, and the numbers behind it.
// Facts only; report/verdict_text words the summary.

#include <string>
#include <vector>

#include "analysis/diagnose/causal_chain.hpp"
#include "analysis/diagnose/data_quality.hpp"
#include "analysis/measure/call_accounting.hpp"

namespace causeway::analysis {

// Fewer accounted CUDA calls than this cannot say anything about a loop.
inline constexpr std::int64_t kMinCallsForVerdict = 20;

// Why the verdict is what it is.
enum class VerdictReason {
    kCommandNotRun,     // no CUDA call, and the recorded command never ran {why: its data-quality
                        // description}
    kNoCudaCalls,       // no CUDA call {host_event_rows: what the trace holds instead, may be 0}
    kCallsLeftOut,      // CUDA calls were recorded, but every one was left out {left_out: count}
    kTooFewCalls,       // {calls, min_calls: kMinCallsForVerdict}
    kTopChain,          // the class of the chain whose removal gains most (the diagnosis' first)
    kNoSchedulingData,  // no chain, but without off-CPU intervals nothing can be called healthy
    kNoCause,           // no cause costs {min_share: kChainMinShare} of the loop (its critical
                        // path, where known): HEALTHY
    kLast = kNoCause,   // the words are checked for every reason up to this one (report/)
};

struct Verdict {
    VerdictClass verdict_class = VerdictClass::kInsufficientData;
    VerdictReason reason = VerdictReason::kNoCudaCalls;
    FactParams facts;
    std::vector<Evidence> numbers;  // the loop's; empty without accounted calls
};

// Whether removing the chain's cause would save at least kChainMinShare of the loop (its critical
// path; a chain without one is judged by its time lost, as it was made). A chain that would not
// has LOW confidence and never makes the verdict.
bool worth_removing(const CausalChain& chain);

// Whether removing the chain's cause may save less than kChainMinShare of the loop at the low end
// of its prediction (where the device's work is known only within a range): the cause is there,
// but not proven to matter.
bool may_gain_little(const CausalChain& chain);

// `chains` ranked, largest predicted gain first. `scheduling_known` is false when the trace has no
// off-CPU intervals (then "nothing found" is not "healthy").
Verdict decide_verdict(const CallAccounting& accounting, const std::vector<CausalChain>& chains,
                       const DataQualityReport& quality, bool scheduling_known,
                       std::int64_t host_event_rows);

}  // namespace causeway::analysis
