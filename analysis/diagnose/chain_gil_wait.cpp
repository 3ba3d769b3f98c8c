// GIL-CONTENDED: the thread that drives the GPU sleeps between its CUDA calls waiting for
// CPython's GIL (the collector tells those waits by their futex, inside _PyRuntime). Another thread
// of its process holds the GIL running Python code: it gives the GIL up only when the
// interpreter's switch interval asks it to, and each CUDA call (which releases the GIL around the
// foreign call) costs the training thread up to that interval to take it back. The holder is
// named (gil_holders.hpp) with the line it ran as it handed the GIL over; the advice frees the GIL
// and never adds DataLoader workers, which would not touch it.
#include "analysis/diagnose/chain_builders.hpp"
#include "analysis/model/saturating.hpp"

namespace causeway::analysis {
namespace {

// How many of the chain's waits ended with a handover from the holder (a wait's other sleeps
// were ended by the interpreter's timer).
std::int64_t handovers(const ChainInputs& in, const Cause& cause) {
    std::int64_t count = 0;
    for (const ThreadAccount& primary : in.accounting.primary) {
        for (const SleepOverlap& sleep : primary.gap_sleeps) {
            const OffCpuInterval& o = *sleep.interval;
            count += o.gil && o.wake == Wake::kThread && o.gil_holder_index >= 0 &&
                             o.gil_holder_index == cause.key.thread_index
                         ? 1
                         : 0;
        }
    }
    return count;
}

}  // namespace

void describe_gil_wait(const ChainInputs& in, const Cause& cause, CausalChain& chain) {
    std::int64_t slept_ns = cause.woken_ns();
    std::int64_t count = handovers(in, cause);
    chain.facts = {{Fact::kSleptNs, slept_ns},
                   {Fact::kSleptShare, in.share_of_span(slept_ns)},
                   {Fact::kHandovers, count}};
    add_wait_context_evidence(in, chain);
    chain.recommendations.push_back({RecommendationKind::kGilWorkToProcess});
    chain.recommendations.push_back({RecommendationKind::kReleaseGil});
    if (count > 0) {
        chain.recommendations.push_back(
            {RecommendationKind::kShorterSwitchInterval,
             {{Fact::kWaitNs, slept_ns / count}, {Fact::kHandovers, count}}});
    }
    bool holder_known = cause.key.thread_index >= 0;
    chain.confidence = chain.time_lost_share >= 0.3 && holder_known ? Confidence::kHigh
                       : chain.time_lost_share >= 0.15              ? Confidence::kMedium
                                                                    : Confidence::kLow;
}

}  // namespace causeway::analysis
