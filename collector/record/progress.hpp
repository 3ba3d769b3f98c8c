#pragma once
// The live progress line on stderr (once a second, unless --quiet) and the final summary.

#include <cstdint>
#include <string>

namespace causeway::collector {

struct ProgressSample {
    double elapsed_s = 0;
    std::int64_t cuda_events = 0;  // cumulative counts of records consumed
    std::int64_t sched_events = 0;
    std::int64_t life_events = 0;
    std::uint64_t drops = 0;  // kernel-side losses, all sources
    std::int64_t probes_attached = 0;
    std::int64_t traced_processes = 0;
};

// "[ 12.0s] cuda 1.2k/s  sched 310/s  life 2/s  drops 0  probes 46  procs 3", the rates over
// the interval since `previous`.
std::string progress_line(const ProgressSample& previous, const ProgressSample& now);

// 1234 -> "1.2k", 2500000 -> "2.5M"
std::string compact_count(double value);

}  // namespace causeway::collector
