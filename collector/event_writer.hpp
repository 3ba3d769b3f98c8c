#pragma once
// Turns the kernel's CUDA-call and off-CPU records into trace-DB rows: relative timestamps,
// minted thread ids, interned streams, pinned/pageable copies.

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <utility>

#include "bpf/causeway_abi.h"
#include "collector/pinned_memory.hpp"
#include "collector/stack_symbolizer.hpp"
#include "collector/thread_registry.hpp"
#include "tracedb/records.hpp"
#include "tracedb/writer.hpp"

namespace causeway::collector {

// Pure conversions (unit-tested): the ids are resolved by the caller.
tracedb::CudaCallRecord to_cuda_call_record(const cw_cuda_call& event, std::int64_t start_mono_ns,
                                            std::int64_t thread_id,
                                            std::optional<std::int64_t> stream_id,
                                            std::optional<bool> host_pinned,
                                            std::optional<std::int64_t> stack_id);
// `next_thread_id`: who got the CPU; `waker_thread_id`: who woke it (CW_WAKE_TASK only).
tracedb::OffCpuRecord to_offcpu_record(const cw_offcpu& event, std::int64_t start_mono_ns,
                                       std::int64_t thread_id,
                                       std::optional<std::int64_t> next_thread_id,
                                       std::optional<std::int64_t> waker_thread_id);
// Whether a call is a host<->device copy whose host buffer is known (host_pinned applies).
bool is_host_copy(const cw_cuda_call& event);

class EventWriter {
  public:
    EventWriter(tracedb::TraceWriter& writer, ThreadRegistry& registry, std::int64_t start_mono_ns);

    Status on_cuda_call(const cw_cuda_call& event);
    Status on_offcpu(const cw_offcpu& event);
    // Where the addresses of a kernel stack id come from (innermost first); unset: no stacks.
    using StackReader = std::function<std::vector<std::uint64_t>(std::int32_t stack_id)>;
    void record_stacks(StackReader reader) { read_stack_ = std::move(reader); }

    std::int64_t cuda_calls() const { return cuda_calls_; }
    std::int64_t offcpu_intervals() const { return offcpu_intervals_; }

  private:
    Result<std::int64_t> stream_id(std::int64_t process_id, std::uint64_t handle);
    // The stack row of a call's kernel stack id (minted once per process and id).
    Result<std::optional<std::int64_t>> stack_row(std::int64_t process_id, const cw_cuda_call& e);

    tracedb::TraceWriter& writer_;
    ThreadRegistry& registry_;
    std::int64_t start_mono_ns_;
    PinnedMemory pinned_;
    std::map<std::pair<std::int64_t, std::uint64_t>, std::int64_t> streams_;  // (process, handle)
    StackReader read_stack_;
    StackSymbolizer symbolizer_;
    std::map<std::pair<std::int64_t, std::int32_t>, std::int64_t> stacks_;  // (process, kernel id)
    std::int64_t cuda_calls_ = 0;
    std::int64_t offcpu_intervals_ = 0;
};

}  // namespace causeway::collector
