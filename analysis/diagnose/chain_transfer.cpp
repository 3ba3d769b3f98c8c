// TRANSFER-BOUND: host<->device copies take the loop's time; pageable host memory (staged by
// the driver through a bounce buffer) and many small copies are named when they are the case.
#include "analysis/diagnose/chain_builders.hpp"

namespace causeway::analysis {
namespace {

constexpr double kTransferMinShare = 0.20;

// Pinned memory: what it gains where the trace holds the GPU's link (each pageable copy's bytes
// at what the link moves pinned); elsewhere removing the copies' time is the most it can give.
void recommend_pinned_copies(const ChainInputs& in, CausalChain& chain) {
    const std::optional<PcieLink>& link = in.model.session.gpu_link;
    if (!link) {
        chain.recommendations.push_back({RecommendationKind::kPinnedCopies});
        if (chain.critical_path) {
            chain.critical_path->upper_bound = true;
        }
        return;
    }
    chain.recommendations.push_back({RecommendationKind::kPinnedCopies,
                                     {{Fact::kPinnedBytesPerS, link->pinned_copy_bytes_per_s()},
                                      {Fact::kLinkMts, link->mts},
                                      {Fact::kLinkWidth, link->width}}});
    if (chain.critical_path) {
        if (auto fix = union_cost(in, {&in.timeline.pinning_saves})) {
            chain.critical_path->advised_fix = advised_fix(RecommendationKind::kPinnedCopies, *fix);
        }
    }
}

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
    chain.facts = {{Fact::kCopies, acc.copy_calls},
                   {Fact::kCopyBytes, acc.copy_bytes},
                   {Fact::kThroughputBytesPerS, throughput},
                   {Fact::kPageableShare, pageable}};
    chain.evidence.push_back(make_evidence(EvidenceKind::kCopyShare, share,
                                           {{Fact::kLostNs, lost}, {Fact::kSpanNs, acc.span_ns}}));
    chain.evidence.push_back(make_evidence(EvidenceKind::kPageableBytesShare, pageable));
    chain.evidence.push_back(make_evidence(EvidenceKind::kCopyThroughput, throughput));
    chain.evidence.push_back(make_evidence(EvidenceKind::kSmallCopiesShare, small,
                                           {{Fact::kSmallCopyBytes, kSmallCopyBytes}}));
    if (pageable >= 0.5) {
        recommend_pinned_copies(in, chain);
    }
    if (small >= 0.5 && acc.copy_calls >= 100) {
        chain.recommendations.push_back(
            {RecommendationKind::kBatchSmallCopies,
             {{Fact::kSmallShare, small},
              {Fact::kCopies, static_cast<std::int64_t>(acc.copy_calls)}}});
    }
    if (pageable < 0.5 && small < 0.5) {
        chain.recommendations.push_back({RecommendationKind::kFewerBytes});
    }
    chain.confidence = confidence_from(share, 0.5, 0.3);
    blame_device(chain, CauseKind::kTransfers, "host-device copies", EffectKind::kInCopies);
    return chain;
}

}  // namespace causeway::analysis
