#pragma once
// Starts the traced command held at the door: the child is forked at once (so its pid can go into
// the in-kernel filter and the probes can be attached) but waits on a pipe and only execs when
// released. Nothing it does escapes the recording.

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

#include "base/result.hpp"

namespace causeway::collector {

class HeldChild {
  public:
    static Result<HeldChild> spawn(const std::vector<std::string>& argv);
    HeldChild(HeldChild&& other) noexcept;
    HeldChild& operator=(HeldChild&&) = delete;
    ~HeldChild();  // a child never released is killed and reaped

    pid_t pid() const { return pid_; }
    // Lets the child exec; an error when the exec failed (e.g. no such program).
    Status release();
    // The wait(2) status once the child has exited; empty while it runs.
    std::optional<int> poll_exit();
    void signal(int signo) const;

  private:
    HeldChild(pid_t pid, int go_fd, int exec_error_fd, std::string program);
    pid_t pid_ = -1;
    int go_fd_ = -1;          // parent's write end: one byte releases the child
    int exec_error_fd_ = -1;  // parent's read end: the child writes errno if exec fails
    std::string program_;
    bool released_ = false;
    std::optional<int> exit_status_;
};

// Whether `program` can be run the way the child will run it (execvp: a name with a slash is a
// path, any other name is looked up in $PATH): an error "cannot run PROGRAM: No such file or
// directory" (or the reason) otherwise, checked before anything is recorded.
Status check_runnable(const std::string& program);

// Human-readable form of a wait(2) status: "exited with status 0", "killed by signal 9".
std::string describe_wait_status(int status);

}  // namespace causeway::collector
