#include "collector/attach/loader_stop_guard.hpp"

#include <bpf/bpf.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace causeway::collector {
namespace {

// File descriptors the guard keeps; every other one is closed (the DB, the held command's pipe,
// the BPF programs, whose links must go away with the collector).
constexpr int kGuardMapFd = 3;
constexpr int kGuardPipeFd = 4;

[[noreturn]] void run_guard(int map_fd, int pipe_fd) {
    ::setsid();
    for (int signo : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) {
        ::signal(signo, SIG_IGN);
    }
    ::prctl(PR_SET_NAME, "causeway-guard");
    // Both to fixed numbers (first out of the way of each other), then close the rest.
    int map = ::fcntl(map_fd, F_DUPFD_CLOEXEC, 10);
    int pipe = ::fcntl(pipe_fd, F_DUPFD_CLOEXEC, 10);
    if (map < 0 || pipe < 0 || ::dup3(map, kGuardMapFd, O_CLOEXEC) < 0 ||
        ::dup3(pipe, kGuardPipeFd, O_CLOEXEC) < 0) {
        ::_exit(1);
    }
    ::close_range(kGuardPipeFd + 1, ~0U, 0);
    // Nothing to print, and no pipe of the collector's (a `| tee`) may wait for this process.
    int null = ::open("/dev/null", O_RDWR | O_CLOEXEC);
    for (int fd : {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO}) {
        ::dup3(null, fd, 0);
    }
    char byte = 0;
    ssize_t got;
    do {
        got = ::read(kGuardPipeFd, &byte, 1);
    } while (got < 0 && errno == EINTR);
    if (got == 1) {
        ::_exit(0);  // dismissed: the collector ended normally
    }
    // The collector is gone. Its probes are detached as its file descriptors close, which may
    // take a moment after the pipe closed: continue again until they surely are.
    for (unsigned delay_ms : {0u, 50u, 250u, 1000u, 3000u}) {
        ::usleep(delay_ms * 1000);
        continue_loader_stops(kGuardMapFd);
    }
    ::_exit(0);
}

}  // namespace

void continue_loader_stop(int loader_stopped_fd, std::uint32_t tgid) {
    ::bpf_map_delete_elem(loader_stopped_fd, &tgid);
    ::kill(static_cast<pid_t>(tgid), SIGCONT);
}

int continue_loader_stops(int loader_stopped_fd) {
    int continued = 0;
    std::uint32_t tgid = 0;
    // Always the first key: each one is deleted before the next lookup.
    while (::bpf_map_get_next_key(loader_stopped_fd, nullptr, &tgid) == 0) {
        continue_loader_stop(loader_stopped_fd, tgid);
        ++continued;
    }
    return continued;
}

Result<LoaderStopGuard> LoaderStopGuard::start(int loader_stopped_fd) {
    int ends[2];
    if (::pipe2(ends, O_CLOEXEC) != 0) {
        return Error{std::string("cannot create the pipe of the dlopen-stop guard: ") +
                     std::strerror(errno)};
    }
    pid_t pid = ::fork();
    if (pid < 0) {
        int error = errno;
        ::close(ends[0]);
        ::close(ends[1]);
        return Error{std::string("cannot start the guard that continues the command if the "
                                 "collector dies while it is stopped at a dlopen: ") +
                     std::strerror(error) + " (or record with --no-dlopen-stop)"};
    }
    if (pid == 0) {
        ::close(ends[1]);
        run_guard(loader_stopped_fd, ends[0]);
    }
    ::close(ends[0]);
    return LoaderStopGuard(pid, ends[1]);
}

LoaderStopGuard::LoaderStopGuard(LoaderStopGuard&& other) noexcept
    : pid_(other.pid_), write_fd_(other.write_fd_) {
    other.pid_ = -1;
    other.write_fd_ = -1;
}

LoaderStopGuard::~LoaderStopGuard() {
    dismiss();
}

void LoaderStopGuard::dismiss() {
    if (write_fd_ >= 0) {
        char byte = 1;
        (void)!::write(write_fd_, &byte, 1);
        ::close(write_fd_);
        write_fd_ = -1;
    }
    if (pid_ > 0) {
        ::waitpid(pid_, nullptr, 0);
        pid_ = -1;
    }
}

}  // namespace causeway::collector
