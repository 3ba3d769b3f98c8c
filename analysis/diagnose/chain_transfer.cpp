// TRANSFER-BOUND: host<->device copies take the loop's time; pageable host memory (staged by
// the driver through a bounce buffer) and many small copies are named when they are the case.
#include "analysis/diagnose/chain_builders.hpp"

namespace causeway::analysis {
namespace {

constexpr double kTransferMinShare = 0.20;

}  // namespace

std::optional<CausalChain> transfer_chain(const ChainInputs& in) {
    const CallAccounting& acc = in.accounting;
    const TimeSplit& copy = acc.by_category[static_cast<std::size_t>(OpCategory::kCopy)];
    std::int64_t lost = category_own_ns(acc, OpCategory::kCopy);
    double share = in.share_of_span(lost);
    if (acc.span_ns == 0 || share < kTransferMinShare || acc.copy_calls == 0) {
        return std::nullopt;
    }
    CausalChain chain;
    chain.root_cause_class = VerdictClass::kTransferBound;
    chain.time_lost_ns = lost;
    chain.time_lost_share = share;
    chain.critical_path = in_call_cost(in, {OpCategory::kCopy});
    double pageable = acc.copy_bytes > 0 ? static_cast<double>(acc.pageable_copy_bytes) /
                                               static_cast<double>(acc.copy_bytes)
                                         : 0.0;
    double small = static_cast<double>(acc.small_copies) / static_cast<double>(acc.copy_calls);
    double throughput = copy.total_ns > 0 ? static_cast<double>(acc.copy_bytes) * 1e9 /
                                                static_cast<double>(copy.total_ns)
                                          : 0.0;
    // Symptom: the share of the loop, the copies and their throughput; root cause: whether most
    // bytes came from pageable memory.
    chain.facts = {{"copies", acc.copy_calls},
                   {"copy_bytes", acc.copy_bytes},
                   {"throughput_bytes_per_s", throughput},
                   {"pageable_share", pageable}};
    chain.evidence.push_back(make_evidence(EvidenceKind::kCopyShare, share,
                                           {{"lost_ns", lost}, {"span_ns", acc.span_ns}}));
    chain.evidence.push_back(make_evidence(EvidenceKind::kPageableBytesShare, pageable));
    chain.evidence.push_back(make_evidence(EvidenceKind::kCopyThroughput, throughput));
    chain.evidence.push_back(make_evidence(EvidenceKind::kSmallCopiesShare, small,
                                           {{"small_copy_bytes", kSmallCopyBytes}}));
    if (pageable >= 0.5) {
        chain.recommendations.push_back({RecommendationKind::kPinnedCopies});
        if (chain.critical_path) {
            chain.critical_path->upper_bound = true;
        }
    }
    if (small >= 0.5 && acc.copy_calls >= 100) {
        chain.recommendations.push_back(
            {RecommendationKind::kBatchSmallCopies,
             {{"small_share", small}, {"copies", static_cast<std::int64_t>(acc.copy_calls)}}});
    }
    if (pageable < 0.5 && small < 0.5) {
        chain.recommendations.push_back({RecommendationKind::kFewerBytes});
    }
    chain.confidence = confidence_from(share, 0.5, 0.3);
    blame_device(chain, CauseKind::kTransfers, "host-device copies", EffectKind::kInCopies);
    return chain;
}

}  // namespace causeway::analysis
