#include "collector/attach/launcher.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace causeway::collector {

HeldChild::HeldChild(pid_t pid, int go_fd, int exec_error_fd, std::string program)
    : pid_(pid), go_fd_(go_fd), exec_error_fd_(exec_error_fd), program_(std::move(program)) {}

HeldChild::HeldChild(HeldChild&& other) noexcept
    : pid_(other.pid_),
      go_fd_(other.go_fd_),
      exec_error_fd_(other.exec_error_fd_),
      program_(std::move(other.program_)),
      released_(other.released_),
      exit_status_(other.exit_status_) {
    other.pid_ = -1;
    other.go_fd_ = other.exec_error_fd_ = -1;
}

HeldChild::~HeldChild() {
    if (go_fd_ >= 0) {
        ::close(go_fd_);
    }
    if (exec_error_fd_ >= 0) {
        ::close(exec_error_fd_);
    }
    if (pid_ > 0 && !released_ && !exit_status_) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
    }
}

Result<HeldChild> HeldChild::spawn(const std::vector<std::string>& argv) {
    int go[2], exec_error[2];
    if (::pipe2(go, O_CLOEXEC) != 0 || ::pipe2(exec_error, O_CLOEXEC) != 0) {
        return Error{std::string("cannot create a pipe to start the command: ") +
                     std::strerror(errno)};
    }
    pid_t pid = ::fork();
    if (pid < 0) {
        return Error{std::string("cannot fork to start the command: ") + std::strerror(errno)};
    }
    if (pid == 0) {
        ::close(go[1]);
        ::close(exec_error[0]);
        char byte = 0;
        if (::read(go[0], &byte, 1) != 1) {
            ::_exit(127);  // the collector went away before releasing us
        }
        std::vector<char*> args;
        for (const auto& arg : argv) {
            args.push_back(const_cast<char*>(arg.c_str()));
        }
        args.push_back(nullptr);
        ::execvp(args[0], args.data());
        int error = errno;
        (void)!::write(exec_error[1], &error, sizeof(error));
        ::_exit(127);
    }
    ::close(go[0]);
    ::close(exec_error[1]);
    return HeldChild(pid, go[1], exec_error[0], argv.front());
}

Status HeldChild::release() {
    char byte = 1;
    released_ = true;
    if (::write(go_fd_, &byte, 1) != 1) {
        return Error{"cannot release the command " + program_ + ": " + std::strerror(errno)};
    }
    ::close(go_fd_);
    go_fd_ = -1;
    int error = 0;
    ssize_t n = ::read(exec_error_fd_, &error, sizeof(error));  // EOF: exec succeeded
    ::close(exec_error_fd_);
    exec_error_fd_ = -1;
    if (n == static_cast<ssize_t>(sizeof(error))) {
        poll_exit();
        return Error{"cannot run " + program_ + ": " + std::strerror(error) +
                     (error == ENOENT && program_.find('/') == std::string::npos
                          ? " (is it on PATH?)"
                          : "")};
    }
    return Ok{};
}

std::optional<int> HeldChild::poll_exit() {
    if (!exit_status_ && pid_ > 0) {
        int status = 0;
        if (::waitpid(pid_, &status, WNOHANG) == pid_) {
            exit_status_ = status;
        }
    }
    return exit_status_;
}

void HeldChild::signal(int signo) const {
    if (pid_ > 0 && !exit_status_) {
        ::kill(pid_, signo);
    }
}

Status check_runnable(const std::string& program) {
    // 0 when `path` is an executable regular file, else the errno execve would give.
    auto runnable = [](const std::string& path) {
        struct stat st {};
        if (::stat(path.c_str(), &st) != 0) {
            return errno;
        }
        if (!S_ISREG(st.st_mode)) {
            return EACCES;
        }
        return ::access(path.c_str(), X_OK) == 0 ? 0 : errno;
    };
    auto cannot_run = [&program](int error, const std::string& more) {
        return Error{"cannot run " + program + ": " + std::strerror(error) + more};
    };
    if (program.empty()) {
        return cannot_run(ENOENT, "");
    }
    if (program.find('/') != std::string::npos) {
        int error = runnable(program);
        return error == 0 ? Status{Ok{}} : cannot_run(error, "");
    }
    const char* path_variable = std::getenv("PATH");
    std::string search = path_variable != nullptr ? path_variable : "/bin:/usr/bin";
    int error = ENOENT;  // what execvp reports when no folder has it
    for (std::size_t begin = 0; begin <= search.size();) {
        std::size_t end = std::min(search.find(':', begin), search.size());
        std::string folder = search.substr(begin, end - begin);
        int found = runnable((folder.empty() ? "." : folder) + "/" + program);
        if (found == 0) {
            return Ok{};
        }
        if (found == EACCES) {
            error = EACCES;  // as execvp: a file that is there but not runnable
        }
        begin = end + 1;
    }
    return cannot_run(error, " (looked in PATH=" + search + ")");
}

std::string describe_wait_status(int status) {
    if (WIFEXITED(status)) {
        return "exited with status " + std::to_string(WEXITSTATUS(status));
    }
    if (WIFSIGNALED(status)) {
        return std::string("killed by signal ") + std::to_string(WTERMSIG(status)) + " (" +
               strsignal(WTERMSIG(status)) + ")";
    }
    return "status " + std::to_string(status);
}

}  // namespace causeway::collector
