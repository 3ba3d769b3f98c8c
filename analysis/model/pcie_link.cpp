#include "analysis/model/pcie_link.hpp"

namespace causeway::analysis {

double PcieLink::bytes_per_s() const {
    // PCIe 1.x and 2.x (2.5 and 5 GT/s) send 10 bits per byte; 3.0 onwards 130 per 128.
    const double encoding = mts <= 5'000 ? 8.0 / 10.0 : 128.0 / 130.0;
    return static_cast<double>(mts) * 1e6 * static_cast<double>(width) * encoding / 8.0;
}

double PcieLink::pinned_copy_bytes_per_s() const {
    return bytes_per_s() * kPinnedCopyLinkShare;
}

std::optional<PcieLink> pcie_link(std::optional<std::int64_t> mts,
                                  std::optional<std::int64_t> width) {
    // PCIe 6.0 runs 64 GT/s on at most 32 lanes: anything far past that is not a link.
    constexpr std::int64_t kMostMts = 1'000'000;
    constexpr std::int64_t kMostWidth = 64;
    if (!mts || !width || *mts <= 0 || *width <= 0 || *mts > kMostMts || *width > kMostWidth) {
        return std::nullopt;
    }
    return PcieLink{.mts = *mts, .width = *width};
}

}  // namespace causeway::analysis
