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

}  // namespace causeway::analysis
