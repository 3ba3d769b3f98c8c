#include "collector/events/event_writer.hpp"

#include "collector/events/nccl_call.hpp"

namespace causeway::collector {
namespace {

// CW_OFFCPU_* as offcpu.reason.
tracedb::OffCpuReason offcpu_reason(cw_u8 reason) {
    switch (reason) {
        case CW_OFFCPU_PREEMPTED:
            return tracedb::OffCpuReason::kPreempted;
        case CW_OFFCPU_THROTTLED:
            return tracedb::OffCpuReason::kThrottled;
        default:
            return tracedb::OffCpuReason::kBlocked;
    }
}

// The id of (process, handle) in `ids`, minted by `add` the first time.
template <class Add>
Result<std::int64_t> interned_id(
    std::map<std::pair<std::int64_t, std::uint64_t>, std::int64_t>& ids, std::int64_t process_id,
    std::uint64_t handle, Add add) {
    const auto key = std::make_pair(process_id, handle);
    if (auto it = ids.find(key); it != ids.end()) {
        return it->second;
    }
    auto id = add(process_id, static_cast<std::int64_t>(handle));
    if (id) {
        ids.emplace(key, *id);
    }
    return id;
}

}  // namespace

bool is_host_copy(const cw_cuda_call& e) {
    return (e.flags & CW_CALL_HAS_ADDR) != 0 &&
           (e.copy_kind == CW_COPY_HOST_TO_DEVICE || e.copy_kind == CW_COPY_DEVICE_TO_HOST);
}

tracedb::CudaCallRecord to_cuda_call_record(const cw_cuda_call& e, std::int64_t start_mono_ns,
                                            std::int64_t thread_id,
                                            std::optional<std::int64_t> stream_id,
                                            std::optional<bool> host_pinned,
                                            std::optional<std::int64_t> stack_id) {
    tracedb::CudaCallRecord record;
    record.thread_id = thread_id;
    record.op_id = e.op;
    record.ts_ns = static_cast<std::int64_t>(e.ts_ns) - start_mono_ns;
    record.dur_ns = static_cast<std::int64_t>(e.dur_ns);
    if (e.flags & CW_CALL_HAS_BYTES) {
        record.bytes = static_cast<std::int64_t>(e.bytes);
    }
    if (e.copy_kind != CW_COPY_NONE) {
        record.copy_kind = e.copy_kind;
    }
    if (host_pinned) {
        record.host_pinned = *host_pinned ? 1 : 0;
    }
    record.stream_id = stream_id;
    record.ret = e.ret;
    record.stack_id = stack_id;
    return record;
}

tracedb::OffCpuRecord to_offcpu_record(const cw_offcpu& e, std::int64_t start_mono_ns,
                                       std::int64_t thread_id,
                                       std::optional<std::int64_t> next_thread_id,
                                       std::optional<std::int64_t> waker_thread_id) {
    tracedb::OffCpuRecord record;
    record.thread_id = thread_id;
    record.ts_ns = static_cast<std::int64_t>(e.ts_ns) - start_mono_ns;
    record.dur_ns = static_cast<std::int64_t>(e.dur_ns);
    record.reason = offcpu_reason(e.reason);
    record.runq_wait_ns = static_cast<std::int64_t>(e.runq_wait_ns);
    record.cpu = e.cpu;
    record.next_thread_id = next_thread_id;
    record.wake_context = static_cast<tracedb::WakeContext>(e.wake_context);
    record.waker_thread_id = waker_thread_id;
    record.syscall_nr = e.syscall_nr;
    record.iowait = e.iowait != 0;
    record.waits_for =
        e.waits_for == CW_WAITS_GIL ? tracedb::WaitsFor::kGil : tracedb::WaitsFor::kUnknown;
    return record;
}

EventWriter::EventWriter(tracedb::TraceWriter& writer, ThreadRegistry& registry,
                         std::int64_t start_mono_ns)
    : writer_(writer), registry_(registry), start_mono_ns_(start_mono_ns) {}

Result<std::int64_t> EventWriter::stream_id(std::int64_t process_id, std::uint64_t handle) {
    return interned_id(streams_, process_id, handle, [&](std::int64_t process, std::int64_t h) {
        return writer_.add_stream(process, h);
    });
}

Result<std::int64_t> EventWriter::comm_id(std::int64_t process_id, std::uint64_t handle) {
    return interned_id(comms_, process_id, handle, [&](std::int64_t process, std::int64_t h) {
        return writer_.add_nccl_comm(process, h);
    });
}

std::optional<tracedb::PythonStackRecord> EventWriter::python_stack(std::uint32_t tgid,
                                                                    std::uint32_t key) {
    if (!read_python_stack_ || key == CW_PY_NO_STACK) {
        return std::nullopt;
    }
    const PythonInterpreter* interpreter = python_processes_->interpreter(tgid);
    auto stack = read_python_stack_(key);
    if (!interpreter || !stack) {
        return std::nullopt;
    }
    return tracedb::PythonStackRecord{python_symbolizer_.frames(tgid, *interpreter, *stack),
                                      (stack->flags & CW_PY_TRUNCATED) != 0};
}

Result<std::optional<std::int64_t>> EventWriter::stack_row(std::int64_t process_id,
                                                           std::uint32_t tgid,
                                                           std::int32_t native_id,
                                                           std::uint32_t python_key) {
    if (!read_stack_) {
        native_id = -1;
    }
    if (native_id < 0 && python_key == CW_PY_NO_STACK) {
        return std::optional<std::int64_t>{};
    }
    auto key = std::make_tuple(process_id, native_id, python_key);
    auto it = stacks_.find(key);
    if (it != stacks_.end()) {
        return std::optional<std::int64_t>{it->second};
    }
    auto addresses = native_id < 0 ? std::vector<std::uint64_t>{} : read_stack_(native_id);
    auto python = python_stack(tgid, python_key);
    if (addresses.empty() && !python) {
        return std::optional<std::int64_t>{};
    }
    auto id = writer_.add_stack(process_id, symbolizer_.frames(tgid, addresses), python);
    if (!id) {
        return id.error();
    }
    stacks_.emplace(key, *id);
    return std::optional<std::int64_t>{*id};
}

Status EventWriter::on_nccl_call(const cw_nccl_call& e) {
    cw_cuda_call call = e.call;
    if (auto bytes = nccl_call_bytes(e)) {
        call.bytes = static_cast<cw_u64>(*bytes);
        call.flags |= CW_CALL_HAS_BYTES;
    }
    if (auto status = on_cuda_call(call); !status) {
        return status;
    }
    auto ids = origin(e.call.tid, e.call.tgid);
    if (!ids) {
        return ids.error();
    }
    const bool made = nccl_makes_comm(e.call.op);
    std::optional<std::int64_t> comm;
    if (e.comm != 0 && (!made || e.call.ret == 0)) {
        auto id = comm_id(ids->process_id, e.comm);
        if (!id) {
            return id.error();
        }
        comm = *id;
        if (made && e.nranks != CW_NCCL_NONE) {
            const bool ranked =
                e.call.op == CW_OP_ncclCommInitRank || e.call.op == CW_OP_ncclCommInitRankConfig;
            auto status = writer_.set_nccl_comm_ranks(
                *comm, e.nranks, ranked ? std::optional<std::int64_t>(e.peer) : std::nullopt);
            if (!status) {
                return status;
            }
        }
    }
    return writer_.add_nccl_call(to_nccl_call_record(e, start_mono_ns_, ids->thread_id, comm));
}

Result<EventWriter::Origin> EventWriter::origin(std::uint32_t tid, std::uint32_t tgid) {
    auto thread = registry_.thread_id(tid, tgid, true);
    if (!thread) {
        return thread.error();
    }
    auto process = registry_.process_id(tgid, true);
    if (!process) {
        return process.error();
    }
    return Origin{*thread, *process};
}

Status EventWriter::on_cuda_call(const cw_cuda_call& e) {
    auto ids = origin(e.tid, e.tgid);
    if (!ids) {
        return ids.error();
    }
    const auto [thread, process] = *ids;
    if (e.ret == 0 && (e.flags & CW_CALL_HAS_ADDR)) {
        if (e.op == CW_OP_cudaMallocHost || e.op == CW_OP_cudaHostAlloc) {
            pinned_.add(process, e.host_addr, e.bytes);
        } else if (e.op == CW_OP_cudaFreeHost) {
            pinned_.remove(process, e.host_addr);
        }
    }
    std::optional<std::int64_t> stream;
    if (e.flags & CW_CALL_HAS_STREAM) {
        auto id = stream_id(process, e.stream);
        if (!id) {
            return id.error();
        }
        stream = *id;
    }
    std::optional<bool> pinned;
    if (is_host_copy(e)) {
        pinned = pinned_.contains(process, e.host_addr);
    }
    auto stack = stack_row(process, e.tgid, e.stack_id, e.python_stack);
    if (!stack) {
        return stack.error();
    }
    ++cuda_calls_;
    return writer_.add_cuda_call(
        to_cuda_call_record(e, start_mono_ns_, thread, stream, pinned, *stack));
}

Status EventWriter::on_offcpu(const cw_offcpu& e) {
    auto thread = registry_.thread_id(e.tid, e.tgid, true);
    if (!thread) {
        return thread.error();
    }
    std::optional<std::int64_t> next;
    if (e.next_tid != 0) {  // 0: the idle task got the CPU
        auto id = registry_.thread_id(e.next_tid, e.next_tgid, false, comm_string(e.next_comm));
        if (!id) {
            return id.error();
        }
        next = *id;
    }
    std::optional<std::int64_t> waker;
    if (e.wake_context == CW_WAKE_TASK && e.waker_tid != 0) {
        auto id = registry_.thread_id(e.waker_tid, e.waker_tgid, false, comm_string(e.waker_comm));
        if (!id) {
            return id.error();
        }
        waker = *id;
    }
    ++offcpu_intervals_;
    return writer_.add_offcpu(to_offcpu_record(e, start_mono_ns_, *thread, next, waker));
}

Status EventWriter::on_switch_stack(const cw_switch_stack& e) {
    auto ids = origin(e.tid, e.tgid);
    if (!ids) {
        return ids.error();
    }
    const auto [thread, process] = *ids;
    auto stack = stack_row(process, e.tgid, -1, e.python_stack);
    if (!stack) {
        return stack.error();
    }
    if (!*stack) {
        return Ok{};  // the frames could not be named (the interpreter is not known)
    }
    tracedb::SwitchOutStackRecord record;
    record.thread_id = thread;
    record.ts_ns = static_cast<std::int64_t>(e.ts_ns) - start_mono_ns_;
    record.stack_id = **stack;
    record.reason = offcpu_reason(e.reason);
    if (e.role == CW_SWITCH_COMPETITOR || e.role == CW_SWITCH_GIL_HOLDER) {
        record.role = e.role == CW_SWITCH_COMPETITOR ? tracedb::SwitchRole::kCompetitor
                                                     : tracedb::SwitchRole::kGilHolder;
        auto gpu_thread = registry_.thread_id(e.gpu_tid, e.gpu_tgid, true);
        if (!gpu_thread) {
            return gpu_thread.error();
        }
        record.gpu_thread_id = *gpu_thread;
        record.gpu_switch_out_ns = static_cast<std::int64_t>(e.gpu_switch_out_ns) - start_mono_ns_;
    }
    return writer_.add_switch_out_stack(record);
}

}  // namespace causeway::collector
