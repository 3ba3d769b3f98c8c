// Scenario 1, dataloader-oversubscribed: the seed story. A training loop fed by a DataLoader with
// at least as many forked workers as CPUs. Every worker fetches its samples one by one (a new
// tensor per sample plus the interpreter's per-sample cost) and collates them into fresh shared
// pages; together they keep every CPU busy, so the training thread is preempted inside its own
// CUDA calls while the device waits. The fix, --fixed (or --mode slice): direct slicing of the
// in-memory tensor in the training process (x[i:i+batch_size], a view copied straight to the
// device) and no workers; --mode direct gathers shuffled rows into a new tensor per batch instead
// (x[idx]), which moves work into the training thread.
//
// Expected diagnosis: CPU-CONTENDED, the competitors being pt_data_worker; fewer workers or
// direct indexing.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "tests/workloads/scenarios/cpu_cost.hpp"
#include "tests/workloads/scenarios/scenario_run.hpp"
#include "tests/workloads/scenarios/training_steps.hpp"

using namespace causeway::scenarios;

namespace {

struct Options {
    double duration_s = 0;
    bool fixed = false;
    std::string mode = "workers";
    int workers = 2 * online_cpus();
    std::size_t rows = 1'000'000;
    std::size_t features = 100;
    std::size_t batch_size = 4096;
    std::uint64_t per_sample_cpu_ns = 1750;
    double device_scale = 1.0;
};

// What one worker does for one batch, as PyTorch's _MapDatasetFetcher and default_collate do:
// dataset[i] for every sampled row (a new tensor each, plus the per-sample interpreter cost),
// then torch.stack into the batch's shared memory.
void fetch_and_collate(const InMemoryDataset& dataset, const Options& options, std::int64_t batch,
                       float* out) {
    std::vector<std::vector<float>> samples;
    samples.reserve(options.batch_size);
    for (std::size_t row : dataset.sample_rows(batch, options.batch_size)) {
        const float* values = dataset.row(row);
        samples.emplace_back(values, values + dataset.features());
        spend_cpu(options.per_sample_cpu_ns);
    }
    for (std::size_t i = 0; i < samples.size(); ++i) {
        std::memcpy(out + i * dataset.features(), samples[i].data(), dataset.row_bytes());
    }
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"dataloader-oversubscribed: a DataLoader whose workers starve the trainer of CPU"};
    Options options;
    add_duration_option(app, options.duration_s);
    add_fixed_flag(app, options.fixed, "direct slicing in the training process (--mode slice)");
    app.add_option("--mode", options.mode, "where batches are made")
        ->check(CLI::IsMember({"workers", "direct", "slice"}))
        ->capture_default_str();
    app.add_option("--workers", options.workers, "DataLoader worker processes (num_workers)")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    app.add_option("--rows", options.rows, "rows of the in-memory dataset")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    app.add_option("--batch-size", options.batch_size, "rows per batch")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    app.add_option("--per-sample-cpu-ns", options.per_sample_cpu_ns,
                   "CPU time a worker spends per sample besides copying it (ns): the Python "
                   "__getitem__ and collate cost of a PyTorch Dataset")
        ->capture_default_str();
    app.add_option("--device-scale", options.device_scale,
                   "the model step's device time as a multiple of the small model's (0.5: a "
                   "device twice as fast)")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    CLI11_PARSE(app, argc, argv);
    if (options.fixed) {
        options.mode = "slice";
    }

    return run_reporting_errors("dataloader-oversubscribed", [&] {
        const InMemoryDataset dataset(options.rows, options.features);
        const std::size_t batch_bytes = options.batch_size * dataset.row_bytes();
        ModelStep step = kSmallModelStep;
        step.device_ns =
            static_cast<std::uint64_t>(static_cast<double>(step.device_ns) * options.device_scale);
        DeviceModel model(step, batch_bytes);
        Throughput result;
        std::string variant;
        if (options.mode == "direct") {
            variant = "direct";
            result = run_batches_for(options.duration_s, [&](std::int64_t batch) {
                train_on_direct_batch(dataset, model, batch, options.batch_size);
            });
        } else if (options.mode == "slice") {
            variant = "slice";
            result = run_batches_for(options.duration_s, [&](std::int64_t batch) {
                train_on_sliced_batch(dataset, model, batch, options.batch_size);
            });
        } else {
            variant = "workers=" + std::to_string(options.workers);
            DataLoader loader({.workers = options.workers, .batch_bytes = batch_bytes},
                              [&](std::int64_t batch, float* out) {
                                  fetch_and_collate(dataset, options, batch, out);
                              });
            result = run_batches_for(options.duration_s, [&](std::int64_t batch) {
                train_on_loader_batch(loader, model, batch, batch_bytes);
            });
        }
        print_throughput("dataloader-oversubscribed", variant, result);
    });
}
