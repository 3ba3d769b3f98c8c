// Scenario 9, cpu-quota: a direct-indexing training loop alone on the machine, in a cgroup
// whose CPU quota is --quota-cpus CPUs (a container's CPU limit, made by the program itself:
// root). When its group has used the period's quota the thread stays runnable while its CPU goes
// idle until the next period. Nothing else wants the CPUs. The fix, --fixed: no quota (the limit
// raised or dropped).
//
// The fake runtime's device threads (fakecuda-s*) are moved out of the quota after the first step:
// they stand for the GPU, which a CPU quota does not slow. (With cgroup v2 they cannot move, and
// the emulated device is throttled with the loop.)
//
// Expected diagnosis: CPU-THROTTLED, actor cpu_quota; no competitor is named.
#include <dirent.h>

#include <fstream>
#include <memory>
#include <optional>
#include <string>

#include "tests/workloads/scenarios/cpu_quota_group.hpp"
#include "tests/workloads/scenarios/scenario_run.hpp"
#include "tests/workloads/scenarios/training_steps.hpp"

using namespace causeway::scenarios;

namespace {

// The threads of this process that emulate the device: named fakecuda-s<stream>.
std::vector<long> device_threads() {
    std::vector<long> tids;
    std::unique_ptr<DIR, int (*)(DIR*)> tasks(::opendir("/proc/self/task"), ::closedir);
    while (const dirent* entry = tasks ? ::readdir(tasks.get()) : nullptr) {
        std::string comm;
        std::getline(std::ifstream(std::string("/proc/self/task/") + entry->d_name + "/comm"),
                     comm);
        if (comm.rfind("fakecuda-s", 0) == 0) {
            tids.push_back(std::stol(entry->d_name));
        }
    }
    return tids;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"cpu-quota: a training loop in a cgroup with a CPU quota"};
    double duration_s = 0;
    bool fixed = false;
    std::size_t batch_size = 4096;
    double quota_cpus = 0.3;
    add_duration_option(app, duration_s);
    add_fixed_flag(app, fixed, "no CPU quota");
    app.add_option("--batch-size", batch_size, "rows per batch")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    app.add_option("--quota-cpus", quota_cpus, "the group's CPU quota, in CPUs")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    CLI11_PARSE(app, argc, argv);

    return run_reporting_errors("cpu-quota", [&] {
        std::optional<CpuQuotaGroup> group;
        if (!fixed) {
            group.emplace(quota_cpus);  // before any thread starts: all of them go in
        }
        const InMemoryDataset dataset(200'000, 100);
        DeviceModel model(kSmallModelStep, batch_size * dataset.row_bytes());
        const Throughput result = run_batches_for(duration_s, [&](std::int64_t batch) {
            train_on_direct_batch(dataset, model, batch, batch_size);
            if (batch == 0 && group) {  // the device's threads exist once it has had work
                for (long tid : device_threads()) {
                    group->exempt_thread(tid);
                }
            }
        });
        print_throughput("cpu-quota", fixed ? "no-quota" : "quota", result);
    });
}
