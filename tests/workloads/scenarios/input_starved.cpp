// Scenario 2, input-starved: a DataLoader with one worker whose per-sample load blocks (a read
// from slow storage, modelled as a sleep of --sample-latency-us per sample) while the CPUs sit
// idle. The trainer waits for batches outside CUDA, blocked on the result queue. The fix,
// --fixed: more workers (--fixed-workers), which overlap the waits.
//
// Expected diagnosis: INPUT-BOUND; more workers or faster loading.
#include <time.h>

#include <cstdio>
#include <string>

#include "tests/workloads/scenarios/scenario_run.hpp"
#include "tests/workloads/scenarios/training_steps.hpp"

using namespace causeway::scenarios;

namespace {

struct Options {
    double duration_s = 0;
    bool fixed = false;
    int workers = 1;
    int fixed_workers = 4 * online_cpus();
    std::size_t rows = 100'000;
    std::size_t features = 100;
    std::size_t batch_size = 64;
    long sample_latency_us = 200;
};

void wait_for_storage(long latency_us) {
    timespec latency{latency_us / 1'000'000, (latency_us % 1'000'000) * 1000};
    while (::nanosleep(&latency, &latency) != 0) {
    }
}

// Per sample: a blocking read from storage, then the sample itself; then the collate.
void load_batch(const InMemoryDataset& dataset, const Options& options, std::int64_t batch,
                float* out) {
    const auto rows = dataset.sample_rows(batch, options.batch_size);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        wait_for_storage(options.sample_latency_us);
        dataset.gather({rows[i]}, out + i * dataset.features());
    }
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"input-starved: one DataLoader worker blocked on slow per-sample loading"};
    Options options;
    add_duration_option(app, options.duration_s);
    add_fixed_flag(app, options.fixed, "more DataLoader workers (--fixed-workers)");
    app.add_option("--workers", options.workers, "DataLoader worker processes (num_workers)")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    app.add_option("--fixed-workers", options.fixed_workers, "workers used with --fixed")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    app.add_option("--batch-size", options.batch_size, "samples per batch")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    app.add_option("--sample-latency-us", options.sample_latency_us,
                   "how long loading one sample blocks (microseconds)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    CLI11_PARSE(app, argc, argv);
    if (options.fixed) {
        options.workers = options.fixed_workers;
    }

    return run_reporting_errors("input-starved", [&] {
        const InMemoryDataset dataset(options.rows, options.features);
        const std::size_t batch_bytes = options.batch_size * dataset.row_bytes();
        DeviceModel model(kSmallModelStep, batch_bytes);
        DataLoader loader(
            {.workers = options.workers, .batch_bytes = batch_bytes},
            [&](std::int64_t batch, float* out) { load_batch(dataset, options, batch, out); });
        const Throughput result = run_batches_for(options.duration_s, [&](std::int64_t batch) {
            train_on_loader_batch(loader, model, batch, batch_bytes);
        });
        print_throughput("input-starved", "workers=" + std::to_string(options.workers), result);
    });
}
