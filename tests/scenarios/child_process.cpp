#include "tests/scenarios/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <system_error>

namespace causeway::testing {
namespace {

[[noreturn]] void throw_errno(const std::string& what) {
    throw std::system_error(errno, std::generic_category(), what);
}

// Starts argv in a child whose stdout and stderr go to out_fd and err_fd.
pid_t spawn(const std::vector<std::string>& argv, int out_fd, int err_fd) {
    std::vector<char*> args;
    for (const auto& arg : argv) {
        args.push_back(const_cast<char*>(arg.c_str()));
    }
    args.push_back(nullptr);
    const pid_t pid = ::fork();
    if (pid < 0) {
        throw_errno("cannot fork to run " + argv.front());
    }
    if (pid == 0) {
        ::dup2(out_fd, STDOUT_FILENO);
        ::dup2(err_fd, STDERR_FILENO);
        ::execv(args.front(), args.data());
        ::_exit(127);  // exec failed: 127 as a shell reports a missing program
    }
    return pid;
}

int wait_for(pid_t pid) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            return -1;
        }
    }
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

// Reads whatever `fd` has into `text`; false at end of file.
bool drain(int fd, std::string& text) {
    char chunk[4096];
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n > 0) {
        text.append(chunk, static_cast<std::size_t>(n));
    }
    return n > 0 || (n < 0 && errno == EINTR);
}

}  // namespace

Finished run_to_completion(const std::vector<std::string>& argv, double timeout_s) {
    int out_pipe[2];
    int err_pipe[2];
    if (::pipe2(out_pipe, O_CLOEXEC) != 0 || ::pipe2(err_pipe, O_CLOEXEC) != 0) {
        throw_errno("cannot create pipes to run " + argv.front());
    }
    const pid_t pid = spawn(argv, out_pipe[1], err_pipe[1]);
    ::close(out_pipe[1]);
    ::close(err_pipe[1]);

    Finished finished;
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
    pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
    bool timed_out = false;
    while (fds[0].fd >= 0 || fds[1].fd >= 0) {
        if (!timed_out && std::chrono::steady_clock::now() > deadline) {
            ::kill(pid, SIGKILL);
            timed_out = true;
        }
        fds[0].revents = fds[1].revents = 0;  // poll leaves them as they were when interrupted
        if (::poll(fds, 2, 200) < 0 && errno != EINTR) {
            throw_errno("cannot wait for the output of " + argv.front());
        }
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd >= 0 && (fds[i].revents & (POLLIN | POLLHUP)) != 0 &&
                !drain(fds[i].fd, i == 0 ? finished.out : finished.err)) {
                ::close(fds[i].fd);
                fds[i].fd = -1;
            }
        }
    }
    finished.exit_code = wait_for(pid);
    if (timed_out) {
        finished.err += "\n[killed after " + std::to_string(timeout_s) + " s]\n";
    }
    return finished;
}

Background::Background(const std::vector<std::string>& argv) {
    const int null_fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null_fd < 0) {
        throw_errno("cannot open /dev/null");
    }
    pid_ = spawn(argv, null_fd, null_fd);
    ::close(null_fd);
}

Background::~Background() {
    ::kill(pid_, SIGTERM);
    wait_for(pid_);
}

}  // namespace causeway::testing
