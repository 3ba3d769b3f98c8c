#include "tests/workloads/scenarios/scenario_run.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <exception>

namespace causeway::scenarios {

void add_duration_option(CLI::App& app, double& duration_s) {
    duration_s = 3.0;
    app.add_option("--duration", duration_s, "seconds of training to run and time")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
}

void add_fixed_flag(CLI::App& app, bool& fixed, const std::string& fix) {
    app.add_flag("--fixed", fixed, "apply the recommended fix: " + fix);
}

int online_cpus() {
    const long cpus = ::sysconf(_SC_NPROCESSORS_ONLN);
    return cpus > 0 ? static_cast<int>(cpus) : 1;
}

Throughput run_batches_for(double duration_s, const std::function<void(std::int64_t)>& step) {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    const auto deadline = start + std::chrono::duration<double>(duration_s);
    Throughput result;
    while (Clock::now() < deadline) {
        step(result.batches);
        ++result.batches;
    }
    result.elapsed_s = std::chrono::duration<double>(Clock::now() - start).count();
    return result;
}

int run_reporting_errors(const std::string& scenario, const std::function<void()>& body) {
    try {
        body();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: %s\n", scenario.c_str(), e.what());
        return 1;
    }
    return 0;
}

void print_throughput(const std::string& scenario, const std::string& variant,
                      const Throughput& result) {
    std::printf("scenario=%s variant=%s batches=%lld elapsed_s=%.3f\n", scenario.c_str(),
                variant.c_str(), static_cast<long long>(result.batches), result.elapsed_s);
    std::printf("throughput_batches_per_s=%.2f\n", result.batches_per_s());
    std::fflush(stdout);
}

}  // namespace causeway::scenarios
