// Scenario 10, nccl-dataloader-rank: a data-parallel job of two ranks on the fake NCCL, each bound
// to its own CPU as a launcher binds ranks to their cores. Rank 1 runs three DataLoader-like
// workers (pt_data_worker) on its CPU that burn it as they prefetch, so its host work each step
// waits for a CPU and rank 0 waits for it in every all-reduce. The fix, --fixed: no workers on
// rank 1 (num_workers sized to the CPUs it has).
//
// Expected diagnosis: COLLECTIVE-WAIT, the late rank 1, its lateness spent preempted by its
// DataLoader workers; its predicted gain is what the job gains when rank 1 arrives on time.
#include "tests/workloads/scenarios/nccl_job.hpp"

using namespace causeway::scenarios;

int main(int argc, char** argv) {
    CLI::App app{"nccl-dataloader-rank: rank 1's DataLoader workers take its CPU, rank 0 waits"};
    double duration_s = 0;
    bool fixed = false;
    add_duration_option(app, duration_s);
    add_fixed_flag(app, fixed, "rank 1 runs no workers on its CPU: it arrives with rank 0");
    CLI11_PARSE(app, argc, argv);

    return run_reporting_errors("nccl-dataloader-rank", [&] {
        const NcclJob job{
            .ranks = 2,
            .compute_us = 2000,
            .host_us = 2000,
            .extra_step_us = fixed ? 300.0 : 6000.0,
            .rank_args = {"--pin", "1", "--late-rank", "1", "--late-workers", fixed ? "0" : "3"}};
        print_throughput("nccl-dataloader-rank", fixed ? "fixed" : "workers",
                         run_nccl_job(job, duration_s));
    });
}
