#pragma once
// The MCP fixture trace (tests/server/fixture_trace.hpp) written into a fresh folder of /tmp, for
// targets that serve it. The folder is left behind: a fuzzer runs until it is killed.

#include <cstdlib>
#include <string>

#include "fuzz/fuzz_check.hpp"
#include "tests/server/fixture_trace.hpp"

namespace causeway::fuzz {

inline std::string write_fixture_trace_folder() {
    char folder[] = "/tmp/causeway-fuzz-XXXXXX";
    require(mkdtemp(folder) != nullptr, "a temporary folder for the fixture trace");
    const std::string path = std::string(folder) + "/run.db";
    require(causeway::testing::write_fixture_trace(path).ok(), "the fixture trace is written");
    return path;
}

}  // namespace causeway::fuzz
