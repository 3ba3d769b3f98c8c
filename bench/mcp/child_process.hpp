#pragma once
// A child process whose stdin and stdout are pipes to us (stderr is inherited): enough to speak
// a line-delimited protocol such as MCP's stdio transport. The child is reaped on destruction.

#include <sys/types.h>

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "base/result.hpp"

namespace causeway::bench {

class ChildProcess {
  public:
    // Starts `argv[0]` (searched in PATH) with `argv`.
    static Result<ChildProcess> spawn(const std::vector<std::string>& argv);

    ChildProcess(ChildProcess&& other) noexcept;
    ChildProcess& operator=(ChildProcess&&) = delete;
    ChildProcess(const ChildProcess&) = delete;
    ~ChildProcess();

    // Writes `line` and a newline to the child's stdin and flushes.
    Status write_line(const std::string& line);
    // The next line from the child's stdout without its newline; nullopt at end of file.
    std::optional<std::string> read_line();
    // Closes the child's stdin and waits for it; returns its exit status as waitpid reports it.
    int close_and_wait();

  private:
    ChildProcess(pid_t pid, FILE* to_child, FILE* from_child)
        : pid_(pid), to_child_(to_child), from_child_(from_child) {}

    pid_t pid_ = -1;
    FILE* to_child_ = nullptr;    // owned; the child's stdin
    FILE* from_child_ = nullptr;  // owned; the child's stdout
};

}  // namespace causeway::bench
