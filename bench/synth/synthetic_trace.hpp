#pragma once
// Writes a synthetic trace DB shaped like a PyTorch training job whose DataLoader workers compete
// with the training thread for CPU: the input of the analysis-scaling benchmark. The middle third
// of the trace is CPU-contended (workers preempt the training thread inside its copies and
// synchronisations), so the analysis has real evidence to find and cannot stop early.

#include <cstdint>
#include <string>

#include "base/result.hpp"

namespace causeway::bench {

struct SyntheticTraceOptions {
    std::int64_t cuda_calls = 1'000'000;  // CUDA calls written (count, exact)
    std::int64_t workers = 4;             // DataLoader worker processes (count)
    std::uint64_t seed = 1;               // same seed, same file contents
};

struct SyntheticTraceSummary {
    std::int64_t cuda_calls = 0;          // rows in cuda_call
    std::int64_t offcpu_intervals = 0;    // rows in offcpu
    std::int64_t page_alloc_buckets = 0;  // rows in page_alloc
    std::int64_t snapshots = 0;           // rows in system_snapshot
    std::int64_t duration_ns = 0;         // session length (ns)
};

// Creates `path` (refused when it exists) and fills it.
Result<SyntheticTraceSummary> write_synthetic_trace(const std::string& path,
                                                    const SyntheticTraceOptions& options);

}  // namespace causeway::bench
