#pragma once
// One recording from start to the finished trace DB: checks, the DB and session row, the held
// command or the attached pids, BPF load and attach, the consume loop (rings, late libraries,
// once-a-second snapshots, totals, page buckets, data quality, commit), and a clean finish on
// SIGINT/SIGTERM, at --duration, or when the traced command or pids are gone.

#include <cstdint>
#include <optional>
#include <string>

#include "base/result.hpp"
#include "collector/record/record_options.hpp"

namespace causeway::collector {

struct RecordSummary {
    std::string db_path;
    double elapsed_s = 0;
    std::int64_t cuda_calls = 0;
    std::int64_t offcpu_intervals = 0;
    std::int64_t processes = 0;         // traced processes seen
    std::uint64_t drops = 0;            // ring-buffer losses, all sources
    std::uint64_t unmatched_calls = 0;  // CUDA returns without entry + entries without return
    std::int64_t probes_attached = 0;
    std::optional<int> command_status;  // wait(2) status of the command, when it exited
};

Result<RecordSummary> record(const RecordOptions& options);

// The final line: "recorded 12.3 s: 4567 CUDA calls, 890 off-CPU intervals, ... -> run.db"
std::string summary_line(const RecordSummary& summary);

// Installs SIGINT/SIGTERM handlers that ask the recording to stop (no SA_RESTART, so a poll in
// progress returns at once).
void install_stop_handlers();

}  // namespace causeway::collector
