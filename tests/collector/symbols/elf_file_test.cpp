// The ELF reader on real files: this test program (its own function and data object, checked
// against where the kernel mapped them) and the fake CUDA runtime (versioned exports), and the
// errors that name a file it cannot read.
#include "collector/symbols/elf_file.hpp"

#include <elf.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>

#include "collector/symbols/stack_symbolizer.hpp"
#include "tests/support/temp_dir.hpp"

using namespace causeway::collector;
using causeway::testing::TempDir;

extern "C" __attribute__((noinline)) int causeway_elf_file_probe_function(int x) {
    return x * 5 + 2;
}

// In .data: the file holds its initial bytes. (A block: `extern "C" T x = v;` draws a warning.)
extern "C" {
std::uint64_t causeway_elf_file_probe_data = 0x1122334455667788;
}

namespace {

std::string own_path() {
    char path[4096] = {};
    ssize_t length = readlink("/proc/self/exe", path, sizeof(path) - 1);
    REQUIRE(length > 0);
    return std::string(path, static_cast<std::size_t>(length));
}

// This program's mapping that holds `address`, and its lowest mapping (file offset 0).
struct OwnMappings {
    Mapping holding, lowest;
};
OwnMappings own_mappings(const std::string& path, std::uint64_t address) {
    std::ifstream in("/proc/self/maps");
    std::stringstream text;
    text << in.rdbuf();
    OwnMappings found;
    bool lowest_seen = false;
    for (const auto& mapping : parse_mappings(text.str())) {
        if (mapping.path != path) {
            continue;
        }
        if (!lowest_seen) {
            found.lowest = mapping;
            lowest_seen = true;
        }
        if (address >= mapping.start && address < mapping.end) {
            found.holding = mapping;
        }
    }
    REQUIRE(lowest_seen);
    REQUIRE(found.holding.end != 0);
    return found;
}

}  // namespace

TEST_CASE("a function of this program has the file offset the kernel mapped it from") {
    std::string path = own_path();
    auto file = ElfFile::open(path);
    REQUIRE(file);
    auto offsets = file->function_offsets({"causeway_elf_file_probe_function", "no_such_function"});
    CHECK(offsets.count("no_such_function") == 0);
    REQUIRE(offsets.count("causeway_elf_file_probe_function") == 1);
    auto address = reinterpret_cast<std::uint64_t>(&causeway_elf_file_probe_function);
    Mapping holding = own_mappings(path, address).holding;
    CHECK(offsets.at("causeway_elf_file_probe_function") ==
          address - holding.start + holding.file_offset);
}

TEST_CASE("a data object of this program: its address, size, bytes and load base") {
    std::string path = own_path();
    auto file = ElfFile::open(path);
    REQUIRE(file);
    CHECK(file->path() == path);
    auto objects = file->data_objects({"causeway_elf_file_probe_data", "no_such_object"});
    CHECK(objects.count("no_such_object") == 0);
    REQUIRE(objects.count("causeway_elf_file_probe_data") == 1);
    const ElfFile::DataObject& object = objects.at("causeway_elf_file_probe_data");
    CHECK(object.size_bytes == sizeof(std::uint64_t));

    auto bytes = file->read(object.vaddr, sizeof(std::uint64_t));
    REQUIRE(bytes.size() == sizeof(std::uint64_t));
    std::uint64_t initial = 0;
    std::memcpy(&initial, bytes.data(), sizeof(initial));
    CHECK(initial == 0x1122334455667788);
    std::uint64_t end_of_segments = 0;
    for (const auto& segment : file->load_segments()) {
        end_of_segments = std::max(end_of_segments, segment.vaddr + segment.file_size);
    }
    CHECK(file->read(end_of_segments, 8).empty());  // nothing of the file lies there

    // Where the kernel put it: the load base of the program's lowest mapping plus its address.
    auto address = reinterpret_cast<std::uint64_t>(&causeway_elf_file_probe_data);
    Mapping lowest = own_mappings(path, address).lowest;
    auto base = file->load_base(lowest.start, lowest.file_offset);
    REQUIRE(base);
    CHECK(*base + object.vaddr == address);
    if (file->position_independent()) {
        CHECK_FALSE(file->load_base(lowest.start, 0x7fff0000));  // a page no segment starts in
    }
}

TEST_CASE("the fake CUDA runtime's versioned exports match by their plain names") {
    auto file = ElfFile::open(CW_FAKE_CUDART_PATH);
    REQUIRE(file);
    CHECK(file->position_independent());
    CHECK_FALSE(file->load_segments().empty());
    auto offsets = file->function_offsets({"cudaMalloc", "cudaMemcpyAsync", "cudaNoSuchCall"});
    CHECK(offsets.count("cudaMalloc") == 1);
    CHECK(offsets.count("cudaMemcpyAsync") == 1);
    CHECK(offsets.count("cudaNoSuchCall") == 0);
    int functions = 0;
    file->for_each_defined_symbol(STT_FUNC, [&](const ElfSymbol& symbol) {
        CHECK(symbol.vaddr != 0);
        functions += symbol.name == "cudaMalloc" ? 1 : 0;
    });
    CHECK(functions >= 1);
}

TEST_CASE("a file that cannot be read as ELF gives an error naming it") {
    auto missing = ElfFile::open("/nonexistent/libcudart.so.13");
    REQUIRE_FALSE(missing);
    CHECK(missing.error().message ==
          "cannot open /nonexistent/libcudart.so.13: No such file or directory");

    TempDir dir;
    std::string text_file = dir.file("not-elf.so");
    std::ofstream(text_file) << "not an ELF file\n";
    auto not_elf = ElfFile::open(text_file);
    REQUIRE_FALSE(not_elf);
    CHECK(not_elf.error().message == text_file + " is not an ELF file");
}
