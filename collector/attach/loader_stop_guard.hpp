#pragma once
// Keeps a command the collector stops at each dlopen (bpf/lifecycle.bpf.c) from staying stopped
// when the collector dies between the stop and its SIGCONT (kill -9, a crash, the OOM killer).
//
// Why a guard process: the stop is sent by the kernel, so only something outside the collector
// can undo it after the collector is gone. PR_SET_PDEATHSIG in the launched command would reach
// only that one process (not its children, which are stopped too, nor processes it did not
// start), and would continue a process the user stopped. Instead the BPF program marks each
// process it stops in the `loader_stopped` map before stopping it, and the collector unmarks it
// before sending SIGCONT. The guard, forked once the programs are loaded but before any probe is
// attached, holds that map and the read end of a pipe whose write end only the collector has:
// when the collector dies the pipe reads end-of-file, and the guard continues every process still
// marked (again after 50 ms, 250 ms, 1 s and 3 s, while the dead collector's probes are being
// detached). When the collector ends normally it continues what is left itself and dismisses the
// guard. The guard runs in a session of its own and ignores SIGINT, SIGTERM and SIGHUP, so the
// Ctrl-C or the process-group kill that ends the collector does not end it too; a SIGKILL aimed
// at the guard itself is the one case it does not cover.

#include <sys/types.h>

#include <cstdint>

#include "base/result.hpp"

namespace causeway::collector {

// Deletes every process from `loader_stopped_fd` and sends it SIGCONT; returns how many. Uses
// no memory allocation (it also runs in the forked guard).
int continue_loader_stops(int loader_stopped_fd);
// Unmarks one process, then continues it (in that order: once continued it may stop again).
void continue_loader_stop(int loader_stopped_fd, std::uint32_t tgid);

class LoaderStopGuard {
  public:
    static Result<LoaderStopGuard> start(int loader_stopped_fd);
    LoaderStopGuard(LoaderStopGuard&& other) noexcept;
    LoaderStopGuard& operator=(LoaderStopGuard&&) = delete;
    ~LoaderStopGuard();  // dismisses the guard if dismiss() was not called

    // Tells the guard it is not needed (the collector has continued every stopped process and
    // its loader probe is detached) and waits for it to exit.
    void dismiss();
    pid_t pid() const { return pid_; }

  private:
    LoaderStopGuard(pid_t pid, int write_fd) : pid_(pid), write_fd_(write_fd) {}
    pid_t pid_ = -1;
    int write_fd_ = -1;  // the collector's end of the pipe
};

}  // namespace causeway::collector
