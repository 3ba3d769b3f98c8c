#include "tests/workloads/scenarios/nccl_job.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace causeway::scenarios {
namespace {

// Runs `argv` with its stdout read back; throws when it does not exit 0.
std::string output_of(const std::vector<std::string>& argv) {
    int out[2];
    if (pipe(out) != 0) {
        throw std::runtime_error("pipe failed");
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, out[0]);
    std::vector<char*> args(argv.size() + 1, nullptr);
    std::transform(argv.begin(), argv.end(), args.begin(),
                   [](const std::string& arg) { return const_cast<char*>(arg.c_str()); });
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(out[1]);
    if (spawned != 0) {
        close(out[0]);
        throw std::runtime_error(argv[0] + " cannot be run: " + std::strerror(spawned));
    }
    std::string text;
    char buffer[4096];
    for (ssize_t n; (n = read(out[0], buffer, sizeof buffer)) > 0;) {
        text.append(buffer, static_cast<std::size_t>(n));
    }
    close(out[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        throw std::runtime_error(argv[0] + " failed:\n" + text);
    }
    return text;
}

// A value `name=<x>` of rank 0's line "rank=0 steps=N elapsed_s=S steps_per_s=X".
double rank0_value(const std::string& output, const std::string& name) {
    const auto line = output.find("rank=0 ");
    const auto at = output.find(name + "=", line);
    if (line == std::string::npos || at == std::string::npos) {
        throw std::runtime_error("rank 0 reported no " + name + ":\n" + output);
    }
    return std::stod(output.substr(at + name.size() + 1));
}

}  // namespace

Throughput run_nccl_job(const NcclJob& job, double duration_s) {
    const double step_us = static_cast<double>(job.compute_us + job.host_us) + job.extra_step_us;
    const long steps = std::max(20L, std::lround(duration_s * 1e6 / step_us));
    std::vector<std::string> argv = {CW_NCCL_LAUNCH_BIN,
                                     std::to_string(job.ranks),
                                     CW_NCCL_RANK_BIN,
                                     "--steps",
                                     std::to_string(steps),
                                     "--compute-us",
                                     std::to_string(job.compute_us),
                                     "--host-us",
                                     std::to_string(job.host_us)};
    argv.insert(argv.end(), job.rank_args.begin(), job.rank_args.end());
    const std::string output = output_of(argv);
    return {.batches = static_cast<std::int64_t>(rank0_value(output, "steps")),
            .elapsed_s = rank0_value(output, "elapsed_s")};
}

}  // namespace causeway::scenarios
