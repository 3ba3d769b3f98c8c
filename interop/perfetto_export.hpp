#pragma once
// `causeway export --format perfetto run.db out.json`: the trace as Chrome trace-event JSON, which
// ui.perfetto.dev opens. Each process is a process track named "comm [pid N]"; each thread gets
// a track for its CUDA calls ("comm [tid N]") and one for its off-CPU intervals ("... off-CPU"),
// with more lanes only where the recorded intervals overlap without nesting. Counters: system
// CPU% and load, page allocations per process, and per-bucket event counts of imported traces.
// An NCCL job's ranks get a track group per communicator, their collectives aligned
// (perfetto_ranks.hpp).

#include <cstdint>
#include <string>

#include "base/result.hpp"
#include "tracedb/reader.hpp"

namespace causeway::interop {

struct PerfettoExportSummary {
    std::int64_t cuda_slices = 0;
    std::int64_t offcpu_slices = 0;
    std::int64_t collective_slices = 0;  // on the NCCL ranks' aligned tracks
    std::int64_t counter_samples = 0;
    std::int64_t tracks = 0;         // thread tracks created (lanes included)
    std::int64_t overlap_lanes = 0;  // extra lanes needed for intervals that did not nest
};

// Writes `out_path`, which must not exist; on failure nothing is left behind.
Result<PerfettoExportSummary> export_perfetto(const tracedb::TraceReader& trace,
                                              const std::string& out_path);

}  // namespace causeway::interop
