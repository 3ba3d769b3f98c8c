#include "collector/host/gpu_link.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>

#include "collector/discover/text_files.hpp"

namespace causeway::collector {
namespace {

namespace fs = std::filesystem;

constexpr const char* kNvidiaVendor = "0x10de";
// PCI base class 0x03 (display controller): VGA 0x0300 and 3D 0x0302, as the data-centre parts.
constexpr const char* kDisplayClassPrefix = "0x03";
// MT/s per lane of PCIe generations 1 to 6.
constexpr std::array<std::int64_t, 6> kGenerationMts = {2'500,  5'000,  8'000,
                                                        16'000, 32'000, 64'000};
constexpr std::int64_t kMostLanes = 32;

std::string first_line(const fs::path& file) {
    std::string text = read_text_file(file.string());
    return text.substr(0, text.find('\n'));
}

// "16.0 GT/s PCIe" (or "16 GT/s", kernels before 4.18): MT/s; nullopt for "Unknown".
std::optional<std::int64_t> link_speed_mts(const fs::path& file) {
    const std::string text = first_line(file);
    if (text.find("GT/s") == std::string::npos) {
        return std::nullopt;
    }
    try {
        const double gts = std::stod(text);
        if (gts > 0) {
            return std::llround(gts * 1000);
        }
    } catch (const std::exception&) {
    }
    return std::nullopt;
}

std::optional<std::int64_t> link_width(const fs::path& file) {
    try {
        const std::int64_t lanes = std::stoll(first_line(file));
        if (lanes > 0 && lanes <= kMostLanes) {
            return lanes;
        }
    } catch (const std::exception&) {
    }
    return std::nullopt;
}

// The most a device's link reaches; nullopt where the folder shows no link.
std::optional<GpuLink> device_link(const fs::path& device) {
    auto mts = link_speed_mts(device / "max_link_speed");
    auto width = link_width(device / "max_link_width");
    if (!mts || !width) {
        return std::nullopt;
    }
    return GpuLink{.mts = *mts, .width = *width};
}

bool is_nvidia_gpu(const fs::path& device) {
    return first_line(device / "vendor") == kNvidiaVendor &&
           first_line(device / "class").rfind(kDisplayClassPrefix, 0) == 0;
}

double rate(const GpuLink& link) {
    return static_cast<double>(link.mts) * static_cast<double>(link.width);
}

}  // namespace

std::optional<GpuLink> read_gpu_link(const std::string& pci_devices) {
    std::optional<GpuLink> slowest;
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(pci_devices, error)) {
        const fs::path device = entry.path();
        if (!is_nvidia_gpu(device)) {
            continue;
        }
        auto link = device_link(device);
        if (!link) {
            continue;
        }
        // The port above it: the parent folder of the device's own (resolved) folder.
        std::error_code resolve_error;
        const fs::path resolved = fs::canonical(device, resolve_error);
        if (!resolve_error) {
            if (auto port = device_link(resolved.parent_path())) {
                link->mts = std::min(link->mts, port->mts);
                link->width = std::min(link->width, port->width);
            }
        }
        if (!slowest || rate(*link) < rate(*slowest)) {
            slowest = link;
        }
    }
    return slowest;
}

Result<GpuLink> parse_gpu_link(const std::string& text) {
    const Error wrong{"'" + text +
                      "' is not a PCIe link: give its generation and lanes, as gen4x16 "
                      "(generations 1-6, 1-32 lanes)"};
    if (text.size() < 6 || text.rfind("gen", 0) != 0 || text[4] != 'x') {
        return wrong;
    }
    const int generation = text[3] - '0';
    const std::string lanes = text.substr(5);
    if (generation < 1 || generation > static_cast<int>(kGenerationMts.size()) || lanes.empty() ||
        lanes.size() > 2 ||
        !std::all_of(lanes.begin(), lanes.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        return wrong;
    }
    const std::int64_t width = std::stoll(lanes);
    if (width < 1 || width > kMostLanes) {
        return wrong;
    }
    return GpuLink{.mts = kGenerationMts[static_cast<std::size_t>(generation - 1)], .width = width};
}

}  // namespace causeway::collector
