// causeway-bench-synth: writes a synthetic trace DB of a CPU-contended training job, the input
// of the analysis-scaling benchmark (bench/run.sh).
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>

#include "bench/synth/synthetic_trace.hpp"

int main(int argc, char** argv) {
    CLI::App app{"Write a synthetic Causeway trace DB for the analysis benchmarks"};
    std::string path;
    causeway::bench::SyntheticTraceOptions options;
    app.add_option("--out", path, "trace DB to create (must not exist)")->required();
    app.add_option("--calls", options.cuda_calls, "CUDA calls to write")
        ->check(CLI::PositiveNumber);
    app.add_option("--workers", options.workers, "DataLoader worker processes")
        ->check(CLI::PositiveNumber);
    app.add_option("--seed", options.seed, "random seed (same seed, same contents)");
    CLI11_PARSE(app, argc, argv);

    auto start = std::chrono::steady_clock::now();
    auto summary = causeway::bench::write_synthetic_trace(path, options);
    if (!summary) {
        std::fprintf(stderr, "causeway-bench-synth: %s\n", summary.error().message.c_str());
        return 1;
    }
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf(
        "%s: %lld cuda calls, %lld off-cpu intervals, %lld page buckets, %lld snapshots, "
        "%.1f s of trace, written in %.1f s\n",
        path.c_str(), static_cast<long long>(summary->cuda_calls),
        static_cast<long long>(summary->offcpu_intervals),
        static_cast<long long>(summary->page_alloc_buckets),
        static_cast<long long>(summary->snapshots), summary->duration_ns / 1e9, seconds);
    return 0;
}
