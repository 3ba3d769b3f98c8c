#pragma once
// Turns the kernel's CUDA-call, NCCL-call and off-CPU records into trace-DB rows: relative
// timestamps, minted thread ids, interned streams and communicators, pinned/pageable copies.

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <tuple>
#include <utility>

#include "bpf/causeway_abi.h"
#include "collector/events/pinned_memory.hpp"
#include "collector/events/thread_registry.hpp"
#include "collector/python/processes.hpp"
#include "collector/python/symbolizer.hpp"
#include "collector/symbols/stack_symbolizer.hpp"
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
    // Its cuda_call row (bytes from count and datatype) and its nccl_call row.
    Status on_nccl_call(const cw_nccl_call& event);
    Status on_offcpu(const cw_offcpu& event);
    Status on_switch_stack(const cw_switch_stack& event);
    // Where the addresses of a kernel stack id come from (innermost first); unset: no stacks.
    using StackReader = std::function<std::vector<std::uint64_t>(std::int32_t stack_id)>;
    void record_stacks(StackReader reader) { read_stack_ = std::move(reader); }
    // Where the frames of a kernel Python stack key come from, and the interpreters that name
    // them; unset: no Python frames.
    using PythonStackReader = std::function<std::optional<cw_python_stack>(std::uint32_t key)>;
    void record_python_stacks(PythonStackReader reader, const PythonProcesses& processes) {
        read_python_stack_ = std::move(reader);
        python_processes_ = &processes;
    }
    // Python frames whose code object could not be read (count).
    std::int64_t unresolved_python_frames() const { return python_symbolizer_.unresolved_frames(); }

    std::int64_t cuda_calls() const { return cuda_calls_; }
    std::int64_t offcpu_intervals() const { return offcpu_intervals_; }

  private:
    // The minted ids of a traced thread and its process.
    struct Origin {
        std::int64_t thread_id;
        std::int64_t process_id;
    };
    Result<Origin> origin(std::uint32_t tid, std::uint32_t tgid);
    Result<std::int64_t> stream_id(std::int64_t process_id, std::uint64_t handle);
    Result<std::int64_t> comm_id(std::int64_t process_id, std::uint64_t handle);
    // The stack row of a native stack id and a Python stack key of process `tgid` (minted once
    // per process and pair); nothing when neither can be read.
    Result<std::optional<std::int64_t>> stack_row(std::int64_t process_id, std::uint32_t tgid,
                                                  std::int32_t native_id, std::uint32_t python_key);
    std::optional<tracedb::PythonStackRecord> python_stack(std::uint32_t tgid, std::uint32_t key);

    tracedb::TraceWriter& writer_;
    ThreadRegistry& registry_;
    std::int64_t start_mono_ns_;
    PinnedMemory pinned_;
    // (process, handle) -> cuda_stream.id, nccl_comm.id
    using Interned = std::map<std::pair<std::int64_t, std::uint64_t>, std::int64_t>;
    Interned streams_;
    Interned comms_;
    StackReader read_stack_;
    StackSymbolizer symbolizer_;
    PythonStackReader read_python_stack_;
    const PythonProcesses* python_processes_ = nullptr;
    PythonSymbolizer python_symbolizer_;
    // (process, native kernel id, Python key) -> stack.id
    std::map<std::tuple<std::int64_t, std::int32_t, std::uint32_t>, std::int64_t> stacks_;
    std::int64_t cuda_calls_ = 0;
    std::int64_t offcpu_intervals_ = 0;
};

}  // namespace causeway::collector
