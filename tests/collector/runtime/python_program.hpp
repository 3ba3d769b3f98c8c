#pragma once
// Running the Python workloads of tests/workloads/python from runtime tests: with a pipe on
// stdin (closing it tells the workload to finish) and on stdout (it says "ready"), the lines its
// marker comments name, and waiting on a trace while it is being recorded.

#include <sys/types.h>

#include <string>
#include <vector>

namespace causeway::testing {

// A process whose stdin and stdout are pipes to the test.
class PipedProcess {
  public:
    explicit PipedProcess(const std::vector<std::string>& argv);
    ~PipedProcess();
    PipedProcess(const PipedProcess&) = delete;
    PipedProcess& operator=(const PipedProcess&) = delete;

    pid_t pid() const { return pid_; }
    // The next line it writes to stdout (without the newline); empty at its end.
    std::string read_line();
    // Closes its stdin (the workloads' signal to stop) and waits: its wait status.
    int finish();

  private:
    pid_t pid_ = -1;
    int stdin_fd_ = -1;
    int stdout_fd_ = -1;
};

// The source folder of the Python workloads, and Debian's interpreter.
std::string python_workload(const std::string& script);
inline const char* const kDebianPython = "/usr/bin/python3";

// The 1-based line of `script` that carries the marker comment `# cw-line: NAME`; fails the
// test when there is none.
int marker_line(const std::string& script, const std::string& name);

// Waits until `sql` (one integer) is positive on the trace `db_path` being recorded, reading it
// again every 50 ms; false after `limit_s` seconds (a limit for a broken build, not a duration
// the test relies on).
bool wait_for_trace(const std::string& db_path, const std::string& sql, int limit_s = 120);

}  // namespace causeway::testing
