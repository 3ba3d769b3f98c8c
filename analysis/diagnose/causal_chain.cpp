#include "analysis/diagnose/causal_chain.hpp"

namespace causeway::analysis {

const char* confidence_name(Confidence confidence) {
    switch (confidence) {
        case Confidence::kHigh:
            return "HIGH";
        case Confidence::kMedium:
            return "MEDIUM";
        case Confidence::kLow:
            break;
    }
    return "LOW";
}

const char* effect_kind_name(EffectKind kind) {
    switch (kind) {
        case EffectKind::kPreempted:
            return "preempted";
        case EffectKind::kRunqWait:
            return "runq_wait";
        case EffectKind::kWoken:
            return "woken";
        case EffectKind::kInDevice:
            return "in_device";
        case EffectKind::kInCopies:
            return "in_copies";
        case EffectKind::kInAllocation:
            return "in_allocation";
        case EffectKind::kFirstCallExcess:
            return "first_call_excess";
        case EffectKind::kPeerWait:
            return "peer_wait";
        case EffectKind::kOnCpu:
            break;
    }
    return "on_cpu";
}

}  // namespace causeway::analysis
