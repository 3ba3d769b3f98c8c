#include "bench/mcp/child_process.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

extern char** environ;

namespace causeway::bench {

Result<ChildProcess> ChildProcess::spawn(const std::vector<std::string>& argv) {
    int to_child[2];
    int from_child[2];
    if (pipe2(to_child, O_CLOEXEC) != 0 || pipe2(from_child, O_CLOEXEC) != 0) {
        return Error{std::string("cannot create pipes: ") + std::strerror(errno)};
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, to_child[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, from_child[1], STDOUT_FILENO);
    std::vector<char*> args;
    for (const auto& arg : argv) {
        args.push_back(const_cast<char*>(arg.c_str()));
    }
    args.push_back(nullptr);
    pid_t pid = -1;
    int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(to_child[0]);
    close(from_child[1]);
    if (rc != 0) {
        close(to_child[1]);
        close(from_child[0]);
        return Error{"cannot start " + argv[0] + ": " + std::strerror(rc)};
    }
    return ChildProcess(pid, fdopen(to_child[1], "w"), fdopen(from_child[0], "r"));
}

ChildProcess::ChildProcess(ChildProcess&& other) noexcept
    : pid_(other.pid_), to_child_(other.to_child_), from_child_(other.from_child_) {
    other.pid_ = -1;
    other.to_child_ = nullptr;
    other.from_child_ = nullptr;
}

ChildProcess::~ChildProcess() {
    if (pid_ > 0) {
        close_and_wait();
    }
}

Status ChildProcess::write_line(const std::string& line) {
    if (std::fwrite(line.data(), 1, line.size(), to_child_) != line.size() ||
        std::fputc('\n', to_child_) == EOF || std::fflush(to_child_) != 0) {
        return Error{std::string("cannot write to the child: ") + std::strerror(errno)};
    }
    return Ok{};
}

std::optional<std::string> ChildProcess::read_line() {
    char* buffer = nullptr;
    size_t capacity = 0;
    ssize_t length = getline(&buffer, &capacity, from_child_);
    if (length < 0) {
        std::free(buffer);
        return std::nullopt;
    }
    std::string line(buffer, static_cast<size_t>(length));
    std::free(buffer);
    if (!line.empty() && line.back() == '\n') {
        line.pop_back();
    }
    return line;
}

int ChildProcess::close_and_wait() {
    if (to_child_ != nullptr) {
        std::fclose(to_child_);
        to_child_ = nullptr;
    }
    if (from_child_ != nullptr) {
        std::fclose(from_child_);
        from_child_ = nullptr;
    }
    int status = 0;
    while (pid_ > 0 && waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
    return status;
}

}  // namespace causeway::bench
