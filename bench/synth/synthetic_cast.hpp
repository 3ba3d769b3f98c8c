#pragma once
// The processes, threads, stream, stacks and probes of the synthetic training job: a Python
// training process (main thread + pin-memory thread), its DataLoader worker processes, and one
// competitor outside the traced tree (a kworker).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "bench/synth/synthetic_trace.hpp"
#include "tracedb/records.hpp"
#include "tracedb/writer.hpp"

namespace causeway::bench {

constexpr std::int64_t kSyntheticOffcpuFloorNs = 50'000;      // session.offcpu_floor_ns
constexpr std::int64_t kSyntheticPageBucketNs = 100'000'000;  // session.page_bucket_ns

struct SyntheticProcess {
    std::int64_t id = 0;                 // process.id
    tracedb::PageAllocRecord pending{};  // the page bucket being summed, written when it closes
};

struct SyntheticThread {
    std::int64_t id = 0;                      // thread.id
    std::size_t process_index = 0;            // into SyntheticCast::processes
    tracedb::ThreadSchedTotalRecord total{};  // summed while generating, written at the end
};

struct SyntheticCast {
    std::vector<SyntheticProcess> processes;
    std::vector<SyntheticThread> threads;
    std::size_t main = 0;              // thread index of the training thread
    std::size_t pin_memory = 0;        // thread index of the pin-memory thread
    std::vector<std::size_t> workers;  // thread indices of the DataLoader workers
    std::size_t outsider = 0;          // thread index of the kworker outside the tree
    std::int64_t stream = 0;           // cuda_stream.id used by every call
    std::int64_t copy_stack = 0;       // stack.id of the Python -> cudaMemcpyAsync path
    std::int64_t launch_stack = 0;     // ... -> cudaLaunchKernel
    std::int64_t sync_stack = 0;       // ... -> cudaStreamSynchronize
    std::int64_t item_stack = 0;       // loss.item() -> cudaMemcpy
};

tracedb::SessionRecord synthetic_session(const SyntheticTraceOptions& options);

// Writes the cast, the probe table and zero data-quality counters.
Result<SyntheticCast> add_synthetic_cast(tracedb::TraceWriter& writer, std::int64_t workers);

}  // namespace causeway::bench
