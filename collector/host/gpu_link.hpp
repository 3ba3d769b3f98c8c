#pragma once
// The PCIe link of the GPU, recorded in session.gpu_link_mts and gpu_link_width: what copies from
// pinned host memory would move, which a trace of pageable copies does not show.

#include <cstdint>
#include <optional>
#include <string>

#include "base/result.hpp"

namespace causeway::collector {

struct GpuLink {
    std::int64_t mts = 0;    // transfers per second per lane (millions): 16000 for PCIe 4.0
    std::int64_t width = 0;  // lanes
};

// The slowest NVIDIA display or 3D controller under `pci_devices` (a folder laid out as
// /sys/bus/pci/devices). Per GPU, the lower of its own and its upstream port's maximum speed and
// width: an idle GPU lowers its current speed, and a copy gets the most both ends allow.
// nullopt where no GPU shows a link (none, or a virtual machine that reports "Unknown").
std::optional<GpuLink> read_gpu_link(const std::string& pci_devices = "/sys/bus/pci/devices");

// --gpu-link: "gen4x16" (PCIe generation 1-6, lanes 1-32), for a GPU that sysfs does not show.
Result<GpuLink> parse_gpu_link(const std::string& text);

}  // namespace causeway::collector
