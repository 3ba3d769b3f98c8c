#pragma once
// Running causeway-collector and the test programs from runtime tests, and reading the result.

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tracedb/reader.hpp"

namespace causeway::testing {

struct Finished {
    int wait_status = 0;
    std::string stderr_text;
    bool exited_ok() const;
};

// In a forked child: runs argv[0] (a path) with argv, or exits with 127.
[[noreturn]] void exec_or_exit(const std::vector<std::string>& argv);
// Starts argv in the background (stdout to /dev/null, stderr to `stderr_path` when given).
pid_t spawn(const std::vector<std::string>& argv, const std::string& stderr_path = {});
// Waits for `pid` and returns its wait status.
int wait_for(pid_t pid);
// Runs the collector's `record` with `args`, to the end, behind `wrapper` (e.g. setpriv ...)
// when given; stderr captured.
Finished run_collector(const std::vector<std::string>& args, const std::string& scratch_dir,
                       const std::vector<std::string>& wrapper = {});
std::string collector_path();
// What `command` (run by sh) writes to stdout; fails the test when it does not exit 0.
std::string output_of(const std::string& command);
std::string shell_quoted(const std::string& text);
// `causeway explain --json` of the trace `db`, parsed.
nlohmann::json explain_json(const std::string& db);

// Opens the trace read-only; fails the test (REQUIRE) when it cannot.
tracedb::TraceReader open_trace(const std::string& path);
// Runs a query that returns one integer.
std::int64_t query_int(const tracedb::TraceReader& trace, const std::string& sql);
// The CUDA probes' data-quality counter `counter` (e.g. unmatched_returns, entries_lost).
std::int64_t cuda_probe_counter(const tracedb::TraceReader& trace, const std::string& counter);

}  // namespace causeway::testing
