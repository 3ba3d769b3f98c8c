// TRANSFER-BOUND: host<->device copies take the loop's time; pageable host memory (staged by
// the driver through a bounce buffer) and many small copies are named when they are the case.
#include "analysis/diagnose/chain_builders.hpp"
#include "analysis/human_units.hpp"

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
    chain.root_cause_class = kTransferBound;
    chain.time_lost_ns = lost;
    chain.time_lost_share = share;
    double pageable = acc.copy_bytes > 0 ? static_cast<double>(acc.pageable_copy_bytes) /
                                               static_cast<double>(acc.copy_bytes)
                                         : 0.0;
    double small = static_cast<double>(acc.small_copies) / static_cast<double>(acc.copy_calls);
    double throughput = copy.total_ns > 0 ? static_cast<double>(acc.copy_bytes) * 1e9 /
                                                static_cast<double>(copy.total_ns)
                                          : 0.0;
    chain.symptom = "copies take " + format_percent(share) +
                    " of the loop: " + std::to_string(acc.copy_calls) + " copies, " +
                    format_bytes(static_cast<double>(acc.copy_bytes)) + " at " +
                    format_throughput(throughput);
    chain.evidence.push_back(evidence(
        "copy_share", share, "ratio",
        "inside copy calls " + format_duration(lost) + " of " + format_duration(acc.span_ns)));
    chain.evidence.push_back(evidence(
        "pageable_bytes_share", pageable, "ratio",
        format_percent(pageable) + " of the copied bytes came from pageable (unpinned) memory"));
    chain.evidence.push_back(
        evidence("copy_throughput", throughput, "bytes_per_s",
                 "throughput inside the calls " + format_throughput(throughput)));
    chain.evidence.push_back(evidence("small_copies_share", small, "ratio",
                                      format_percent(small) + " of the copies move less than " +
                                          format_bytes(static_cast<double>(kSmallCopyBytes))));
    chain.root_cause = "Host-device copies dominate the loop" +
                       std::string(pageable >= 0.5 ? ", mostly from pageable memory that the "
                                                     "driver must stage before the DMA"
                                                   : "") +
                       ".";
    if (pageable >= 0.5) {
        chain.recommendations.push_back({RecommendationKind::kPinnedCopies});
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
    blame_device(chain, "transfers", "host-device copies", "in_copies");
    return chain;
}

}  // namespace causeway::analysis
