// Decoding co_linetable: every instruction of real code objects, as each installed interpreter's
// own co_lines() maps them, and the edge cases of the format.
#include "collector/python/line_table.hpp"

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

using causeway::collector::line_for_offset;

namespace {

// For every code object of a few stdlib modules (functions, nested functions, comprehensions):
// "first_line hex_table" then one "start end line" per co_lines() range ("None" when the range
// has no line), and "end" after each code object.
constexpr const char* kDumpScript = R"(
import json.decoder, textwrap, argparse
def codes(code):
    yield code
    for const in code.co_consts:
        if hasattr(const, "co_lines"):
            yield from codes(const)
for module in (json.decoder, textwrap, argparse):
    source = open(module.__file__).read()
    for code in codes(compile(source, module.__file__, "exec")):
        print(code.co_firstlineno, code.co_linetable.hex() or "-")
        for start, end, line in code.co_lines():
            print(start, end, line)
        print("end")
)";

std::vector<std::uint8_t> from_hex(const std::string& hex) {
    std::vector<std::uint8_t> bytes;
    for (std::size_t i = 0; hex != "-" && i + 1 < hex.size(); i += 2) {
        bytes.push_back(static_cast<std::uint8_t>(std::stoi(hex.substr(i, 2), nullptr, 16)));
    }
    return bytes;
}

std::string dump_with(const std::string& python) {
    std::string script_path = std::filesystem::temp_directory_path() / "cw_linetable_dump.py";
    if (FILE* f = std::fopen(script_path.c_str(), "w")) {
        std::fputs(kDumpScript, f);
        std::fclose(f);
    }
    std::string out;
    FILE* pipe = popen((python + " " + script_path).c_str(), "r");
    REQUIRE(pipe != nullptr);
    char buffer[4096];
    while (std::fgets(buffer, sizeof(buffer), pipe) != nullptr) {
        out += buffer;
    }
    REQUIRE(pclose(pipe) == 0);
    return out;
}

}  // namespace

TEST_CASE("line_for_offset agrees with co_lines() of every instruction of real code") {
    std::vector<std::pair<std::string, bool>> interpreters = {{"/usr/bin/python3", true}};
    for (const char* version : {"3.11.7", "3.12.1", "3.13.0"}) {
        interpreters.emplace_back(std::string("/root/.pyenv/versions/") + version + "/bin/python3",
                                  false);
    }
    for (const auto& [python, required] : interpreters) {
        INFO("interpreter " << python);
        if (!std::filesystem::exists(python)) {
            REQUIRE_FALSE(required);
            WARN("not on this machine, not checked: " << python);
            continue;
        }
        std::istringstream dump(dump_with(python));
        std::size_t codes = 0, instructions = 0, mismatches = 0;
        std::string first;
        while (dump >> first) {
            int first_line = std::stoi(first);
            std::string hex;
            dump >> hex;
            auto table = from_hex(hex);
            ++codes;
            std::string start;
            while (dump >> start && start != "end") {
                std::string end, line;
                dump >> end >> line;
                for (int offset = std::stoi(start); offset < std::stoi(end); offset += 2) {
                    auto decoded = line_for_offset(table, first_line, offset);
                    bool same = line == "None" ? !decoded.has_value()
                                               : decoded.has_value() && *decoded == std::stoi(line);
                    ++instructions;
                    if (!same) {
                        ++mismatches;
                        UNSCOPED_INFO("code at line " << first_line << ", offset " << offset
                                                      << ": expected " << line);
                    }
                }
            }
        }
        CHECK(codes > 100);
        CHECK(instructions > 10000);
        CHECK(mismatches == 0);
    }
}

TEST_CASE("line table edge cases") {
    // One entry of the one-line form (code 11: line + 1) over 2 code units, then no location
    // (code 15) over 1 unit, then the no-column form (code 13) with a signed delta of -2.
    const std::vector<std::uint8_t> table = {0x80 | (11 << 3) | 1, 0, 0, 0x80 | (15 << 3) | 0,
                                             0x80 | (13 << 3) | 0, 5};
    CHECK(line_for_offset(table, 10, -2) == 10);  // before the first instruction: the def
    CHECK(line_for_offset(table, 10, 0) == 11);
    CHECK(line_for_offset(table, 10, 2) == 11);
    CHECK_FALSE(line_for_offset(table, 10, 4).has_value());  // no location
    CHECK(line_for_offset(table, 10, 6) == 9);               // 11 - 2
    CHECK_FALSE(line_for_offset(table, 10, 8).has_value());  // past the table
    CHECK_FALSE(line_for_offset({}, 10, 0).has_value());
    const std::vector<std::uint8_t> not_an_entry = {0x01, 0x02};
    CHECK_FALSE(line_for_offset(not_an_entry, 10, 0).has_value());
}
