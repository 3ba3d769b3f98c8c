#pragma once
// Runs programs for end-to-end tests: to completion with their output captured, or in the
// background for as long as an object lives.

#include <sys/types.h>

#include <string>
#include <vector>

namespace causeway::testing {

struct Finished {
    int exit_code = -1;  // exit status; 128 + signal number when killed by a signal
    std::string out;     // everything written to stdout
    std::string err;     // everything written to stderr
};

// Runs argv[0] (a path) with the arguments that follow and waits for it. A run that outlives
// `timeout_s` is killed (SIGKILL) and reported with exit code 128 + 9 and a note on stderr.
// Throws std::system_error when the program cannot be started.
Finished run_to_completion(const std::vector<std::string>& argv, double timeout_s);

// A program running in the background, its output discarded; stopped with SIGTERM and reaped
// when the object goes away.
class Background {
  public:
    explicit Background(const std::vector<std::string>& argv);
    ~Background();
    Background(const Background&) = delete;
    Background& operator=(const Background&) = delete;

  private:
    pid_t pid_;
};

}  // namespace causeway::testing
