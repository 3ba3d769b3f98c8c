#pragma once
// The NCCL scenarios' job: ranks of the fake NCCL (tests/workloads/fakenccl/nccl_rank.cpp),
// started by its launcher as torchrun starts them, each step its host work, its kernels, an
// all-reduce of its gradients and a synchronisation.

#include <string>
#include <vector>

#include "tests/workloads/scenarios/scenario_run.hpp"

namespace causeway::scenarios {

struct NcclJob {
    int ranks = 3;
    long compute_us = 2000;  // each rank's kernels a step
    long host_us = 200;      // each rank's host work a step
    // Beside the ranks' own work, what an all-reduce and its synchronisation add to a step on the
    // fake device, and the late rank's lateness: the step time that sets the step count.
    double extra_step_us = 600;
    std::vector<std::string> rank_args{};  // more cw_nccl_rank options (the late rank's)
};

// Runs the job for about `duration_s` (every rank the same number of steps, at least 20: a rank
// that stopped early would leave the others in a collective) and returns rank 0's throughput.
// Throws when the launcher does not exit 0.
Throughput run_nccl_job(const NcclJob& job, double duration_s);

}  // namespace causeway::scenarios
