// Scenario 9, nccl-late-rank: a data-parallel job of three ranks on the fake NCCL, started as
// torchrun starts them (cw_nccl_launch). Each step every rank does its host work, queues its
// kernels and an all-reduce of its gradients, and synchronises; rank 2 also sleeps --late-ms a
// step first, as a rank waiting for its input (a slow shard of storage), so the other two wait
// for it in every all-reduce. The fix, --fixed: rank 2 no longer sleeps.
//
// Expected diagnosis: COLLECTIVE-WAIT, the late rank 2, its lateness spent asleep; its predicted
// gain is what the job gains when rank 2 arrives on time.
#include <cmath>
#include <string>

#include "tests/workloads/scenarios/nccl_job.hpp"

using namespace causeway::scenarios;

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
        const long late_us = fixed ? 0 : std::lround(late_ms * 1000);
        const NcclJob job{
            .ranks = 3,
            .compute_us = 2000,
            .host_us = 200,
            .extra_step_us = 600.0 + static_cast<double>(late_us),
            .rank_args = {"--late-rank", "2", "--late-sleep-us", std::to_string(late_us)}};
        print_throughput("nccl-late-rank", fixed ? "fixed" : "late", run_nccl_job(job, duration_s));
    });
}
