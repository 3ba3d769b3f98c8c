#pragma once
// What every scenario program shares: the common command-line options and the timed batch loop
// whose result is printed in the fixed format that scripts/run-scenarios.sh and the e2e tests
// parse. The last line of a scenario's stdout is always `throughput_batches_per_s=<number>`.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <string>

namespace causeway::scenarios {

// Adds --duration: wall time of the timed batch loop (seconds), 3 unless given.
void add_duration_option(CLI::App& app, double& duration_s);

// Adds --fixed, which applies the fix the diagnosis recommends, described by `fix`
// (e.g. "direct indexing in the training process").
void add_fixed_flag(CLI::App& app, bool& fixed, const std::string& fix);

// The number of online CPUs.
int online_cpus();

struct Throughput {
    std::int64_t batches = 0;
    double elapsed_s = 0;
    double batches_per_s() const { return elapsed_s > 0 ? batches / elapsed_s : 0; }
};

// Calls step(0), step(1), ... until duration_s of wall time has passed; the batch in flight
// when time runs out is finished and counted.
Throughput run_batches_for(double duration_s, const std::function<void(std::int64_t)>& step);

// Runs the scenario's body; an exception becomes `<scenario>: <message>` on stderr and exit 1.
int run_reporting_errors(const std::string& scenario, const std::function<void()>& body);

// Prints `scenario=<name> variant=<variant> batches=<n> elapsed_s=<s>` and then the
// `throughput_batches_per_s=<x>` line.
void print_throughput(const std::string& scenario, const std::string& variant,
                      const Throughput& result);

}  // namespace causeway::scenarios
