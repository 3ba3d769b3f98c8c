// Scenario 9, nccl-late-rank: a data-parallel job of three ranks on the fake NCCL, started as
// torchrun starts them (cw_nccl_launch). Each step every rank does its host work, queues its
// kernels and an all-reduce of its gradients, and synchronises; rank 2 also sleeps --late-ms a
// step first, as a rank waiting for its input (a slow shard of storage), so the other two wait
// for it in every all-reduce. The fix, --fixed: rank 2 no longer sleeps.
//
// Expected diagnosis: COLLECTIVE-WAIT, the late rank 2, its lateness spent asleep; its predicted
// gain is what the job gains when rank 2 arrives on time.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/workloads/scenarios/scenario_run.hpp"

using namespace causeway::scenarios;

namespace {

constexpr int kRanks = 3;
constexpr int kLateRank = 2;
constexpr long kComputeUs = 2000;  // each rank's kernels a step
constexpr long kHostUs = 200;      // each rank's host work a step
// Beside those, a step's all-reduce and synchronisation take about this long on the fake device.
constexpr double kStepOverheadUs = 600;

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

int main(int argc, char** argv) {
    CLI::App app{"nccl-late-rank: three NCCL ranks wait for the one that sleeps each step"};
    double duration_s = 0;
    bool fixed = false;
    double late_ms = 3.0;
    add_duration_option(app, duration_s);
    add_fixed_flag(app, fixed, "rank 2 does not sleep: it arrives with the others");
    app.add_option("--late-ms", late_ms, "how long rank 2 sleeps a step (milliseconds)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    CLI11_PARSE(app, argc, argv);

    return run_reporting_errors("nccl-late-rank", [&] {
        // Every rank must make the same number of steps (a rank that stopped early would leave
        // the others in a collective): the count that takes about --duration.
        const long late_us = fixed ? 0 : std::lround(late_ms * 1000);
        const double step_us =
            static_cast<double>(kComputeUs + kHostUs + late_us) + kStepOverheadUs;
        const long steps = std::max(20L, std::lround(duration_s * 1e6 / step_us));
        const std::string output =
            output_of({CW_NCCL_LAUNCH_BIN, std::to_string(kRanks), CW_NCCL_RANK_BIN, "--steps",
                       std::to_string(steps), "--compute-us", std::to_string(kComputeUs),
                       "--host-us", std::to_string(kHostUs), "--late-rank",
                       std::to_string(kLateRank), "--late-sleep-us", std::to_string(late_us)});
        print_throughput("nccl-late-rank", fixed ? "fixed" : "late",
                         {.batches = static_cast<std::int64_t>(rank0_value(output, "steps")),
                          .elapsed_s = rank0_value(output, "elapsed_s")});
    });
}
