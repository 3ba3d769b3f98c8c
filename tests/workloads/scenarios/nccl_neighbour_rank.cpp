// Scenario 11, nccl-neighbour-rank: a data-parallel job of two ranks on the fake NCCL, each bound
// to its own CPU as a launcher binds ranks to their cores. The suite starts a CPU hog outside the
// job on CPU 0 first (noisy_hog_one_cpu: another tenant of the node), so rank 0's host work each
// step waits for its CPU and rank 1 waits for rank 0 in every all-reduce. The fix: no hog (the
// suite runs the same program without it).
//
// Expected diagnosis: COLLECTIVE-WAIT, the late rank 0, its lateness spent preempted by a process
// outside the job; its predicted gain is what the job gains when rank 0 arrives on time.
#include "tests/workloads/scenarios/nccl_job.hpp"

using namespace causeway::scenarios;

int main(int argc, char** argv) {
    CLI::App app{"nccl-neighbour-rank: two NCCL ranks, one on the CPU a neighbour hogs"};
    double duration_s = 0;
    add_duration_option(app, duration_s);
    CLI11_PARSE(app, argc, argv);

    return run_reporting_errors("nccl-neighbour-rank", [&] {
        const NcclJob job{.ranks = 2,
                          .compute_us = 2000,
                          .host_us = 2000,
                          .extra_step_us = 2000.0,
                          .rank_args = {"--pin", "1"}};
        print_throughput("nccl-neighbour-rank", "job", run_nccl_job(job, duration_s));
    });
}
