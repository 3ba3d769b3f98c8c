#pragma once
// Runs a shell command line and returns its exit status and combined stdout and stderr.

#include <string>

namespace causeway::testing {

struct ProgramOutput {
    int exit_code = -1;  // -1 when it did not exit normally
    std::string output;  // stdout and stderr, interleaved
};

ProgramOutput run_program(const std::string& command_line);

}  // namespace causeway::testing
