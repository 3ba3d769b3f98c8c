// The GPU's PCIe link, read from a PCI device tree laid out in a temporary folder as sysfs lays
// it out (bus/pci/devices/<address> links to the device's folder under its port's), and given
// with --gpu-link.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "collector/host/gpu_link.hpp"
#include "tests/support/temp_dir.hpp"

using namespace causeway::collector;
using causeway::testing::TempDir;

namespace {

namespace fs = std::filesystem;

struct Device {
    std::string vendor;
    std::string pci_class;
    std::string speed;  // max_link_speed; "" for none
    std::string width;  // max_link_width
};

// A PCI device tree: devices/<path> with its files, linked from bus/pci/devices/<last part>.
class PciTree {
  public:
    std::string bus() const { return dir_.file("bus"); }

    void add(const std::string& path, const Device& d) {
        const fs::path folder = fs::path(dir_.file("devices")) / path;
        fs::create_directories(folder);
        std::ofstream(folder / "vendor") << d.vendor << "\n";
        std::ofstream(folder / "class") << d.pci_class << "\n";
        if (!d.speed.empty()) {
            std::ofstream(folder / "max_link_speed") << d.speed << "\n";
            std::ofstream(folder / "max_link_width") << d.width << "\n";
        }
        fs::create_directories(bus());
        fs::create_directory_symlink(folder, fs::path(bus()) / folder.filename());
    }

  private:
    TempDir dir_;
};

const Device kPort4x16{"0x8086", "0x060400", "16.0 GT/s PCIe", "16"};

}  // namespace

TEST_CASE("a GPU's link is the lower of its own and its port's most", "[collector][gpu_link]") {
    PciTree tree;
    tree.add("pci0000:00/0000:00:01.0", {"0x8086", "0x060400", "8.0 GT/s PCIe", "16"});
    tree.add("pci0000:00/0000:00:01.0/0000:01:00.0",
             {"0x10de", "0x030200", "16.0 GT/s PCIe", "16"});
    tree.add("pci0000:00/0000:00:02.0", {"0x15b3", "0x020000", "16.0 GT/s PCIe", "16"});  // a NIC
    auto link = read_gpu_link(tree.bus());
    REQUIRE(link);
    CHECK(link->mts == 8'000);
    CHECK(link->width == 16);
}

TEST_CASE("of several GPUs the slowest link is kept", "[collector][gpu_link]") {
    PciTree tree;
    tree.add("pci0000:00/0000:00:01.0", kPort4x16);
    tree.add("pci0000:00/0000:00:01.0/0000:01:00.0",
             {"0x10de", "0x030200", "16.0 GT/s PCIe", "16"});
    tree.add("pci0000:00/0000:00:03.0", kPort4x16);
    tree.add("pci0000:00/0000:00:03.0/0000:02:00.0", {"0x10de", "0x030000", "16.0 GT/s PCIe", "8"});
    auto link = read_gpu_link(tree.bus());
    REQUIRE(link);
    CHECK(link->mts == 16'000);
    CHECK(link->width == 8);
}

TEST_CASE("no GPU, or one whose link reads Unknown, gives no link", "[collector][gpu_link]") {
    PciTree tree;
    tree.add("pci0000:00/0000:00:02.0", {"0x15b3", "0x020000", "16.0 GT/s PCIe", "16"});
    CHECK_FALSE(read_gpu_link(tree.bus()));
    // A virtual machine's passed-through GPU on a root bus: no port above it, its link unknown.
    tree.add("pci0000:00/0000:00:05.0", {"0x10de", "0x030200", "Unknown", "255"});
    CHECK_FALSE(read_gpu_link(tree.bus()));
    tree.add("pci0000:00/0000:00:06.0", {"0x10de", "0x030200", "", ""});
    CHECK_FALSE(read_gpu_link(tree.bus()));
    CHECK_FALSE(read_gpu_link(tree.bus() + "/absent"));
}

TEST_CASE("a GPU on a root bus keeps its own link", "[collector][gpu_link]") {
    PciTree tree;
    tree.add("pci0000:00/0000:00:05.0", {"0x10de", "0x030200", "32.0 GT/s PCIe", "16"});
    auto link = read_gpu_link(tree.bus());
    REQUIRE(link);
    CHECK(link->mts == 32'000);
    CHECK(link->width == 16);
}

TEST_CASE("a link given to --gpu-link is a generation and lanes", "[collector][gpu_link]") {
    auto gen4 = parse_gpu_link("gen4x16");
    REQUIRE(gen4);
    CHECK(gen4->mts == 16'000);
    CHECK(gen4->width == 16);
    auto gen1 = parse_gpu_link("gen1x1");
    REQUIRE(gen1);
    CHECK(gen1->mts == 2'500);
    for (const char* wrong : {"", "gen4", "gen4x", "gen7x16", "gen0x16", "gen4x0", "gen4x33",
                              "gen4x1a", "4x16", "Gen4x16", "gen4x016", "gen4 x16"}) {
        INFO(wrong);
        auto parsed = parse_gpu_link(wrong);
        REQUIRE_FALSE(parsed);
        CHECK(parsed.error().message.find("gen4x16") != std::string::npos);
    }
}
