// User-stack addresses -> module, function and offset, through /proc/PID/maps and ELF symbols.
#include "collector/symbols/stack_symbolizer.hpp"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdint>

using namespace causeway::collector;

extern "C" __attribute__((noinline)) int causeway_symbolizer_probe_function(int x) {
    return x * 3 + 1;
}

TEST_CASE("an address in this test program resolves to its function") {
    auto address = reinterpret_cast<std::uint64_t>(&causeway_symbolizer_probe_function) + 4;
    StackSymbolizer symbolizer;
    auto frames = symbolizer.frames(static_cast<std::uint32_t>(getpid()), {address, 1});
    REQUIRE(frames.size() == 2);
    CHECK(frames[0].depth == 0);
    CHECK(frames[0].address == static_cast<std::int64_t>(address));
    REQUIRE(frames[0].module);
    CHECK(frames[0].module->find("collector_unit_tests") != std::string::npos);
    CHECK(frames[0].symbol == "causeway_symbolizer_probe_function");
    CHECK(frames[0].offset == 4);
    // An address nothing maps: kept, with module and symbol unknown.
    CHECK(frames[1].depth == 1);
    CHECK_FALSE(frames[1].module);
    CHECK_FALSE(frames[1].symbol);
}

TEST_CASE("file mappings are parsed from /proc/PID/maps lines") {
    auto mappings = parse_mappings(
        "7f0000000000-7f0000010000 r-xp 00002000 fd:01 99 /usr/lib/libx.so\n"
        "7f0000010000-7f0000011000 rw-p 00000000 00:00 0 \n"
        "7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0 [stack]\n");
    REQUIRE(mappings.size() == 1);
    CHECK(mappings[0].start == 0x7f0000000000);
    CHECK(mappings[0].end == 0x7f0000010000);
    CHECK(mappings[0].file_offset == 0x2000);
    CHECK(mappings[0].path == "/usr/lib/libx.so");
}
