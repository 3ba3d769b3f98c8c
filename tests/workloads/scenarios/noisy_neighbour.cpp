// Scenario 4, noisy-neighbour: a healthy training loop (direct slicing of 16k-row batches: no
// copy on the host, a small model) sharing its CPUs with a CPU hog that is NOT part of the traced
// process tree (noisy_hog, started by the suite before the recording, one spinning thread pinned
// to every CPU). The training thread is
// preempted by the hog inside its CUDA calls. The fix is outside the program: give the job CPUs
// of its own (the suite runs it again without the hog).
//
// Expected diagnosis: CPU-CONTENDED, the competitor named: noisy_hog, outside the traced tree.
#include <string>

#include "tests/workloads/scenarios/scenario_run.hpp"
#include "tests/workloads/scenarios/training_steps.hpp"

using namespace causeway::scenarios;

int main(int argc, char** argv) {
    CLI::App app{"noisy-neighbour: a training loop sharing its CPUs with a process outside it"};
    double duration_s = 0;
    std::size_t batch_size = 16384;
    add_duration_option(app, duration_s);
    app.add_option("--batch-size", batch_size, "rows per batch")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    CLI11_PARSE(app, argc, argv);

    return run_reporting_errors("noisy-neighbour", [&] {
        const InMemoryDataset dataset(200'000, 100);
        DeviceModel model(kSmallModelStep, batch_size * dataset.row_bytes());
        const Throughput result = run_batches_for(duration_s, [&](std::int64_t batch) {
            train_on_sliced_batch(dataset, model, batch, batch_size);
        });
        print_throughput("noisy-neighbour", "sliced", result);
    });
}
