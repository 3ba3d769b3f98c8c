#pragma once
// What a recording lost or could not match, as data_quality rows: each counter with a severity
// and a sentence a person can act on. Zero counters are written too (as 'info'), so a trace says
// "nothing lost" explicitly.

#include <cstdint>
#include <vector>

#include "bpf/causeway_abi.h"
#include "tracedb/records.hpp"

namespace causeway::collector {

struct LossCounters {
    cw_kernel_counters cuda{};
    cw_kernel_counters sched{};
    cw_kernel_counters lifecycle{};
    cw_kernel_counters page_alloc{};
    std::int64_t threads_seen_late = 0;
    // Probes that failed to attach to a symbol the library exports.
    std::int64_t optional_probes_missing = 0;
    std::int64_t required_probes_missing = 0;
    // Symbols of the attach table a library does not export (a minimal or older runtime):
    // nothing can call them there, so nothing is lost.
    std::int64_t symbols_not_exported = 0;
    // Python frames (only with --stacks and a walk): the kernel's walks, and frames whose code
    // object user space could not read.
    bool python_walked = false;
    cw_python_counters python{};
    std::int64_t python_unresolved_frames = 0;
};

std::vector<tracedb::DataQualityRecord> data_quality_records(const LossCounters& counters);

// Events the kernel dropped, all sources (count): what the progress line and summary show.
std::uint64_t total_drops(const LossCounters& counters);

}  // namespace causeway::collector
