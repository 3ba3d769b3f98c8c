#pragma once
// The GPU's PCIe link (session.gpu_link_mts and gpu_link_width, schema 6) and what copies from
// pinned host memory move over it: the link's rate after its line encoding, at the share of it
// that pinned copies reach (measured: 51.7 GB/s of PCIe 5.0 x16's 63.0 on an H200, 0.82; about
// 25 of 4.0 x16's 31.5 on A100-class cards, 0.79).

#include <cstdint>
#include <optional>

namespace causeway::analysis {

struct PcieLink {
    std::int64_t mts = 0;    // transfers per second per lane (millions)
    std::int64_t width = 0;  // lanes

    // Payload bytes a second in one direction, after 8b/10b (PCIe 1-2) or 128b/130b encoding.
    double bytes_per_s() const;
    // What a large copy from pinned host memory moves a second over this link.
    double pinned_copy_bytes_per_s() const;
};

// The share of the link's rate that pinned copies reach.
inline constexpr double kPinnedCopyLinkShare = 0.8;
// A pinned copy's fixed cost beside its bytes (the driver's submission and completion).
inline constexpr std::int64_t kPinnedCopyLatencyNs = 10'000;

// The link as recorded; nullopt when either value is absent or not a possible link.
std::optional<PcieLink> pcie_link(std::optional<std::int64_t> mts,
                                  std::optional<std::int64_t> width);

}  // namespace causeway::analysis
