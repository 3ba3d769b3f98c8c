// causeway-golden-trace KIND OUT.db: writes one of the small, fully deterministic traces the
// golden output tests run every output on (tests/golden/README.md), each giving one verdict class
// the other fixtures do not:
//   gpu-bound  a training thread asleep inside long synchronisations on an idle host (GPU-BOUND)
//   healthy    the next step prepared while the device runs this one, a short sync (HEALTHY)
//   host-bound the training thread computes 9 ms of each 10 ms step while the device waits
//              (HOST-BOUND)
//   lossy      launches only, with 1234 CUDA events dropped by the ring buffer (the loss shown
//              next to the verdict)
//   empty      a finished trace with nothing in it (INSUFFICIENT-DATA: no CUDA calls)
//   transfer-bound      large copies from pageable memory fill the loop (TRANSFER-BOUND)
//   allocation-churn    cudaMalloc and cudaFree every step (ALLOCATION-CHURN)
//   cold-start          one 800 ms first allocation in a 900 ms run (COLD-START)
//   lock-contended      the training thread sleeps on a futex until another thread of its
//                       process wakes it (LOCK-CONTENDED)
//   input-disk-timer    sleeps between calls ended by interrupts: disk reads and a timer
//                       (INPUT-BOUND, two chains)
#include <cstdio>
#include <optional>
#include <string>

#include "tests/support/trace_fixture.hpp"
#include "tracedb/writer.hpp"

using namespace causeway::testing;
using namespace causeway::tracedb;

namespace {

constexpr int kIterations = 200;
constexpr std::int64_t kPeriodNs = 10 * kMs;
constexpr std::int64_t kLoopEndNs = kIterations * kPeriodNs;

// The training loop of every non-empty fixture: a python process (pid 100) whose thread launches
// a kernel every 10 ms, may synchronise after it, and is off its CPU once per iteration.
struct Loop {
    std::int64_t launch_ns = 20 * kUs;
    std::optional<std::int64_t> sync_ns{};  // a cudaStreamSynchronize sync_at_ns after the launch
    std::int64_t sync_at_ns = 100 * kUs;
    std::int64_t offcpu_at_ns = 0;  // since the iteration's start
    std::int64_t offcpu_ns = 0;
    OffCpuReason reason = OffCpuReason::kPreempted;  // preempted: all of it waiting for a CPU
};

// The training process (pid 100) and its thread (tid 100), as rows of the writer.
struct Trainer {
    std::int64_t process = 0;
    std::int64_t thread = 0;
};

Trainer add_trainer(TraceWriter& w) {
    const std::int64_t process = must(w.add_process({.pid = 100, .comm = "python", .start_ns = 0}));
    return Trainer{process,
                   must(w.add_thread({.tid = 100, .process_id = process, .comm = "python"}))};
}

// A 20 us cudaLaunchKernel of `thread` at `ts_ns`.
void launch(TraceWriter& w, std::int64_t thread, std::int64_t ts_ns) {
    must(w.add_cuda_call(
        {.thread_id = thread, .op_id = op::kLaunchKernel, .ts_ns = ts_ns, .dur_ns = 20 * kUs}));
}

void write_loop(TraceWriter& w, const Loop& loop) {
    const std::int64_t thread = add_trainer(w).thread;
    const bool preempted = loop.reason == OffCpuReason::kPreempted;
    for (int i = 0; i < kIterations; ++i) {
        std::int64_t t0 = i * kPeriodNs;
        must(w.add_cuda_call({.thread_id = thread,
                              .op_id = op::kLaunchKernel,
                              .ts_ns = t0,
                              .dur_ns = loop.launch_ns}));
        if (loop.sync_ns) {
            must(w.add_cuda_call({.thread_id = thread,
                                  .op_id = op::kStreamSynchronize,
                                  .ts_ns = t0 + loop.sync_at_ns,
                                  .dur_ns = *loop.sync_ns}));
        }
        must(w.add_offcpu({.thread_id = thread,
                           .ts_ns = t0 + loop.offcpu_at_ns,
                           .dur_ns = loop.offcpu_ns,
                           .reason = loop.reason,
                           .runq_wait_ns = preempted ? loop.offcpu_ns : 0}));
    }
}

void write_gpu_bound(TraceWriter& w) {
    // Asleep inside each synchronisation, waiting for the GPU, on an idle host.
    write_loop(w, {.launch_ns = 30 * kUs,
                   .sync_ns = 9 * kMs,
                   .offcpu_at_ns = 200 * kUs,
                   .offcpu_ns = 8 * kMs,
                   .reason = OffCpuReason::kBlocked});
    add_snapshots(w, kLoopEndNs, 15, 1);
}

void write_healthy(TraceWriter& w) {
    // The thread's own work between the launch and the sync is hidden behind the device's queue.
    write_loop(w, {.sync_ns = 1900 * kUs,
                   .sync_at_ns = 8 * kMs,
                   .offcpu_at_ns = 5 * kMs,
                   .offcpu_ns = 100 * kUs});
    add_snapshots(w, kLoopEndNs, 50, 1);
}

void write_host_bound(TraceWriter& w) {
    // A 1 ms sync, then 9 ms on a CPU with the device's queue empty.
    write_loop(w, {.sync_ns = 1 * kMs, .offcpu_at_ns = 5 * kMs, .offcpu_ns = 100 * kUs});
    add_snapshots(w, kLoopEndNs, 50, 1);
}

void write_lossy(TraceWriter& w) {
    write_loop(w, {.offcpu_at_ns = 1 * kMs, .offcpu_ns = 10 * kUs});
    must(w.put_data_quality({.source = "cuda",
                             .counter = "ringbuf_drops",
                             .value = 1234,
                             .severity = Severity::kDataLoss,
                             .description = "CUDA events dropped: the ring buffer was full"}));
}

// Every step: the calls `step` writes for step i at t0, then 100 us preempted at 8 ms (too little
// to matter).
template <typename Step>
void write_steps(TraceWriter& w, int steps, Step step) {
    const std::int64_t thread = add_trainer(w).thread;
    for (int i = 0; i < steps; ++i) {
        std::int64_t t0 = i * kPeriodNs;
        step(thread, t0);
        must(w.add_offcpu({.thread_id = thread,
                           .ts_ns = t0 + 8 * kMs,
                           .dur_ns = 100 * kUs,
                           .reason = OffCpuReason::kPreempted,
                           .runq_wait_ns = 100 * kUs}));
    }
}

void write_transfer_bound(TraceWriter& w) {
    // A 6 ms host-to-device copy of 64 MiB from pageable memory, then a launch.
    write_steps(w, kIterations, [&w](std::int64_t thread, std::int64_t t0) {
        must(w.add_cuda_call({.thread_id = thread,
                              .op_id = op::kMemcpy,
                              .ts_ns = t0,
                              .dur_ns = 6 * kMs,
                              .bytes = 64LL << 20,
                              .copy_kind = 1,
                              .host_pinned = 0}));
        launch(w, thread, t0 + 6100 * kUs);
    });
    add_snapshots(w, kLoopEndNs, 50, 1);
}

void write_allocation_churn(TraceWriter& w) {
    // cudaMalloc (3.9 ms), a launch, cudaFree (3.8 ms) in every step.
    write_steps(w, kIterations, [&w](std::int64_t thread, std::int64_t t0) {
        must(w.add_cuda_call({.thread_id = thread,
                              .op_id = op::kMalloc,
                              .ts_ns = t0,
                              .dur_ns = 3900 * kUs,
                              .bytes = 256LL << 20}));
        launch(w, thread, t0 + 4 * kMs);
        must(w.add_cuda_call({.thread_id = thread,
                              .op_id = op::kFree,
                              .ts_ns = t0 + 4100 * kUs,
                              .dur_ns = 3800 * kUs}));
    });
    add_snapshots(w, kLoopEndNs, 50, 1);
}

constexpr std::int64_t kColdStartEndNs = 900 * kMs;

void write_cold_start(TraceWriter& w) {
    // An 800 ms first cudaMalloc, then 50 quick steps of 2 ms: malloc and launch.
    const std::int64_t thread = add_trainer(w).thread;
    must(w.add_cuda_call({.thread_id = thread,
                          .op_id = op::kMalloc,
                          .ts_ns = 0,
                          .dur_ns = 800 * kMs,
                          .bytes = 1 << 20}));
    for (int i = 0; i < 50; ++i) {
        std::int64_t t0 = 800 * kMs + i * 2 * kMs;
        must(w.add_cuda_call({.thread_id = thread,
                              .op_id = op::kMalloc,
                              .ts_ns = t0,
                              .dur_ns = 20 * kUs,
                              .bytes = 1 << 20}));
        launch(w, thread, t0 + 100 * kUs);
    }
    must(w.add_offcpu({.thread_id = thread,
                       .ts_ns = 850 * kMs,
                       .dur_ns = 100 * kUs,
                       .reason = OffCpuReason::kPreempted,
                       .runq_wait_ns = 100 * kUs}));
}

// A launch and a 1 ms synchronisation every step, then a 6 ms sleep of the training thread at
// 2 ms, ended as `wake(step)` says (who woke it, what it slept in).
template <typename Wake>
void write_sleeping_steps(TraceWriter& w, const Trainer& trainer, Wake wake) {
    for (int i = 0; i < kIterations; ++i) {
        std::int64_t t0 = i * kPeriodNs;
        launch(w, trainer.thread, t0);
        must(w.add_cuda_call({.thread_id = trainer.thread,
                              .op_id = op::kStreamSynchronize,
                              .ts_ns = t0 + 50 * kUs,
                              .dur_ns = 1 * kMs}));
        OffCpuRecord sleep = wake(i);
        sleep.thread_id = trainer.thread;
        sleep.ts_ns = t0 + 2 * kMs;
        sleep.dur_ns = 6 * kMs;
        sleep.reason = OffCpuReason::kBlocked;
        must(w.add_offcpu(sleep));
    }
}

void write_lock_contended(TraceWriter& w) {
    // Each sleep is on a futex, ended by prep_locker (tid 140) of the same process.
    const Trainer trainer = add_trainer(w);
    const std::int64_t holder =
        must(w.add_thread({.tid = 140, .process_id = trainer.process, .comm = "prep_locker"}));
    write_sleeping_steps(w, trainer, [holder](int) {
        return OffCpuRecord{.runq_wait_ns = 20 * kUs,
                            .wake_context = WakeContext::kThread,
                            .waker_thread_id = holder,
                            .syscall_nr = sys::kFutex};
    });
    add_snapshots(w, kLoopEndNs, 50, 1);
}

void write_input_disk_timer(TraceWriter& w) {
    // Every other sleep is a disk read (iowait), the others clock_nanosleep; a hard interrupt
    // ends each, so no thread is named.
    write_sleeping_steps(w, add_trainer(w), [](int step) {
        bool disk = step % 2 == 0;
        return OffCpuRecord{.runq_wait_ns = 10 * kUs,
                            .wake_context = WakeContext::kHardIrq,
                            .syscall_nr = disk ? sys::kRead : sys::kClockNanosleep,
                            .iowait = disk};
    });
    add_snapshots(w, kLoopEndNs, 30, 1);
}

int fail(const std::string& what) {
    std::fprintf(stderr, "causeway-golden-trace: %s\n", what.c_str());
    return 1;
}

}  // namespace

constexpr const char* kKinds =
    "gpu-bound, healthy, host-bound, lossy, empty, transfer-bound, allocation-churn, cold-start, "
    "lock-contended, input-disk-timer";

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: causeway-golden-trace KIND OUT.db (KIND: %s)\n", kKinds);
        return 2;
    }
    const std::string kind = argv[1];
    void (*write)(TraceWriter&) = nullptr;
    std::int64_t stop_ns = kLoopEndNs;
    if (kind == "gpu-bound") {
        write = write_gpu_bound;
    } else if (kind == "healthy") {
        write = write_healthy;
    } else if (kind == "host-bound") {
        write = write_host_bound;
    } else if (kind == "lossy") {
        write = write_lossy;
    } else if (kind == "empty") {
        stop_ns = 1 * kMs;
    } else if (kind == "transfer-bound") {
        write = write_transfer_bound;
    } else if (kind == "allocation-churn") {
        write = write_allocation_churn;
    } else if (kind == "cold-start") {
        write = write_cold_start;
        stop_ns = kColdStartEndNs;
    } else if (kind == "lock-contended") {
        write = write_lock_contended;
    } else if (kind == "input-disk-timer") {
        write = write_input_disk_timer;
    } else {
        return fail("unknown kind '" + kind + "': give one of " + kKinds);
    }
    try {
        TraceWriter writer =
            must(TraceWriter::create(argv[2], synthetic_session("golden-host", "golden")));
        if (write != nullptr) {
            write(writer);
        }
        must(writer.finish(stop_ns));
    } catch (const FixtureWriteError& e) {
        return fail(e.what());
    }
    return 0;
}
