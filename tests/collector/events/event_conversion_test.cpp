// Kernel records -> trace-DB rows: relative time, NULLs for what an op does not have, pinned
// tracking, off-CPU reasons.
#include <catch2/catch.hpp>

#include "collector/events/event_writer.hpp"
#include "collector/events/nccl_call.hpp"
#include "collector/events/pinned_memory.hpp"

using namespace causeway::collector;
using causeway::tracedb::OffCpuReason;

namespace {

cw_cuda_call copy_call() {
    cw_cuda_call e{};
    e.ts_ns = 5'000'000'123;
    e.dur_ns = 4200;
    e.bytes = 65536;
    e.stream = 0x1234;
    e.host_addr = 0x7f0000001000;
    e.tid = 11;
    e.tgid = 10;
    e.ret = 0;
    e.op = CW_OP_cudaMemcpyAsync;
    e.copy_kind = CW_COPY_HOST_TO_DEVICE;
    e.flags = CW_CALL_HAS_BYTES | CW_CALL_HAS_STREAM | CW_CALL_HAS_ADDR;
    return e;
}

}  // namespace

TEST_CASE("a copy becomes a row relative to the session start with all its arguments") {
    auto record = to_cuda_call_record(copy_call(), 5'000'000'000, 3, 9, true, 12);
    CHECK(record.thread_id == 3);
    CHECK(record.op_id == 7);
    CHECK(record.ts_ns == 123);
    CHECK(record.dur_ns == 4200);
    CHECK(record.bytes == 65536);
    CHECK(record.copy_kind == 1);
    CHECK(record.host_pinned == 1);
    CHECK(record.stream_id == 9);
    CHECK(record.ret == 0);
    CHECK(record.stack_id == 12);
}

TEST_CASE("an op without size, kind or stream stores NULLs, not zeros") {
    cw_cuda_call e{};
    e.ts_ns = 100;
    e.dur_ns = 7;
    e.op = CW_OP_cudaDeviceSynchronize;
    e.copy_kind = CW_COPY_NONE;
    e.ret = 35;
    auto record = to_cuda_call_record(e, 0, 1, std::nullopt, std::nullopt, std::nullopt);
    CHECK_FALSE(record.bytes);
    CHECK_FALSE(record.copy_kind);
    CHECK_FALSE(record.host_pinned);
    CHECK_FALSE(record.stream_id);
    CHECK(record.ret == 35);
}

TEST_CASE("only host<->device copies with a known host buffer get host_pinned") {
    auto e = copy_call();
    CHECK(is_host_copy(e));
    e.copy_kind = CW_COPY_DEVICE_TO_DEVICE;
    CHECK_FALSE(is_host_copy(e));
    e = copy_call();
    e.flags &= ~CW_CALL_HAS_ADDR;
    CHECK_FALSE(is_host_copy(e));
}

TEST_CASE("pinned buffers are tracked per process by address range") {
    PinnedMemory pinned;
    pinned.add(10, 0x1000, 0x100);
    CHECK(pinned.contains(10, 0x1000));
    CHECK(pinned.contains(10, 0x10ff));
    CHECK_FALSE(pinned.contains(10, 0x1100));
    CHECK_FALSE(pinned.contains(10, 0xfff));
    CHECK_FALSE(pinned.contains(11, 0x1000));  // another process
    pinned.remove(10, 0x1000);
    CHECK_FALSE(pinned.contains(10, 0x1000));
}

TEST_CASE("off-CPU records keep reason, run-queue wait, CPU and the competitor") {
    cw_offcpu e{};
    e.ts_ns = 1'000'500;
    e.dur_ns = 80'000;
    e.runq_wait_ns = 80'000;
    e.tid = 5;
    e.tgid = 5;
    e.next_tid = 9;
    e.next_tgid = 9;
    e.cpu = 1;
    e.reason = CW_OFFCPU_PREEMPTED;
    auto record = to_offcpu_record(e, 1'000'000, 2, 4, std::nullopt);
    CHECK(record.ts_ns == 500);
    CHECK(record.dur_ns == 80'000);
    CHECK(record.reason == OffCpuReason::kPreempted);
    CHECK(record.runq_wait_ns == 80'000);
    CHECK(record.cpu == 1);
    CHECK(record.next_thread_id == 4);
    e.reason = CW_OFFCPU_BLOCKED;
    CHECK(to_offcpu_record(e, 0, 2, std::nullopt, std::nullopt).reason == OffCpuReason::kBlocked);
    CHECK_FALSE(to_offcpu_record(e, 0, 2, std::nullopt, std::nullopt).next_thread_id);
}

TEST_CASE("off-CPU records of a sleep keep who woke it and what it slept in") {
    cw_offcpu e{};
    e.dur_ns = 2'000'000;
    e.reason = CW_OFFCPU_BLOCKED;
    e.wake_context = CW_WAKE_TASK;
    e.waker_tid = 12;
    e.syscall_nr = 202;  // futex on x86-64
    e.iowait = 0;
    auto record = to_offcpu_record(e, 0, 2, std::nullopt, 7);
    CHECK(record.wake_context == causeway::tracedb::WakeContext::kThread);
    CHECK(record.waker_thread_id == 7);
    CHECK(record.syscall_nr == 202);
    CHECK(record.iowait == false);
    e.wake_context = CW_WAKE_HARDIRQ;
    e.iowait = 1;
    e.syscall_nr = CW_NO_SYSCALL;
    auto disk = to_offcpu_record(e, 0, 2, std::nullopt, std::nullopt);
    CHECK(disk.wake_context == causeway::tracedb::WakeContext::kHardIrq);
    CHECK_FALSE(disk.waker_thread_id);
    CHECK(disk.iowait == true);
    CHECK(disk.syscall_nr == causeway::tracedb::kNoSyscall);
}

TEST_CASE("an NCCL collective keeps its arguments and moves count times its datatype's size") {
    cw_nccl_call e{};
    e.call.ts_ns = 5'000'000'500;
    e.call.op = CW_OP_ncclReduce;
    e.count = 1000;
    e.datatype = 9;  // bfloat16
    e.redop = 4;     // avg
    e.peer = 2;      // root
    e.nranks = CW_NCCL_NONE;
    CHECK(nccl_call_bytes(e) == 2000);
    auto record = to_nccl_call_record(e, 5'000'000'000, 3, 8);
    CHECK(record.thread_id == 3);
    CHECK(record.ts_ns == 500);
    CHECK(record.op_id == CW_OP_ncclReduce);
    CHECK(record.comm_id == 8);
    CHECK(record.count == 1000);
    CHECK(record.datatype == 9);
    CHECK(record.redop == 4);
    CHECK(record.peer == 2);

    e.datatype = 200;  // no NCCL datatype: the bytes are not known
    CHECK_FALSE(nccl_call_bytes(e));
    e.datatype = 7;
    e.count = ~std::uint64_t{0};  // no real call: no product that overflows
    CHECK_FALSE(nccl_call_bytes(e));
}

TEST_CASE("NCCL calls without data store NULLs, and a failed GetVersion no version") {
    cw_nccl_call e{};
    e.call.op = CW_OP_ncclGroupEnd;
    e.peer = CW_NCCL_NONE;
    e.nranks = CW_NCCL_NONE;
    CHECK_FALSE(nccl_call_bytes(e));
    auto group = to_nccl_call_record(e, 0, 1, std::nullopt);
    CHECK_FALSE(group.count);
    CHECK_FALSE(group.datatype);
    CHECK_FALSE(group.redop);
    CHECK_FALSE(group.peer);
    e.call.op = CW_OP_ncclGetVersion;
    e.count = 22809;
    CHECK(to_nccl_call_record(e, 0, 1, std::nullopt).count == 22809);
    e.call.ret = 4;
    CHECK_FALSE(to_nccl_call_record(e, 0, 1, std::nullopt).count);
    CHECK(nccl_makes_comm(CW_OP_ncclCommSplit));
    CHECK_FALSE(nccl_makes_comm(CW_OP_ncclCommDestroy));
}
