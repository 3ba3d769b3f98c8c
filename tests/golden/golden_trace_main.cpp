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

#include "tracedb/writer.hpp"

using causeway::Status;
using namespace causeway::tracedb;

namespace {

constexpr std::int64_t kUs = 1'000;
constexpr std::int64_t kMs = 1'000'000;
// cuda_op ids of schemas/trace.sql.
constexpr std::int64_t kMalloc = 1;
constexpr std::int64_t kFree = 2;
constexpr std::int64_t kMemcpy = 6;
constexpr std::int64_t kLaunchKernel = 8;
constexpr std::int64_t kStreamSynchronize = 9;

// x86_64 system call numbers (the session's machine) of the sleeps the fixtures record.
constexpr std::int64_t kSysRead = 0;
constexpr std::int64_t kSysFutex = 202;
constexpr std::int64_t kSysClockNanosleep = 230;

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

causeway::Result<Trainer> add_trainer(TraceWriter& w) {
    auto process = w.add_process({.pid = 100, .comm = "python", .start_ns = 0});
    if (!process) {
        return process.error();
    }
    auto thread = w.add_thread({.tid = 100, .process_id = *process, .comm = "python"});
    if (!thread) {
        return thread.error();
    }
    return Trainer{*process, *thread};
}

// A 20 us cudaLaunchKernel of `thread` at `ts_ns`.
Status launch(TraceWriter& w, std::int64_t thread, std::int64_t ts_ns) {
    return w.add_cuda_call(
        {.thread_id = thread, .op_id = kLaunchKernel, .ts_ns = ts_ns, .dur_ns = 20 * kUs});
}

Status write_loop(TraceWriter& w, const Loop& loop) {
    auto trainer = add_trainer(w);
    if (!trainer) {
        return trainer.error();
    }
    const std::int64_t thread = trainer->thread;
    const bool preempted = loop.reason == OffCpuReason::kPreempted;
    for (int i = 0; i < kIterations; ++i) {
        std::int64_t t0 = i * kPeriodNs;
        Status s = w.add_cuda_call(
            {.thread_id = thread, .op_id = kLaunchKernel, .ts_ns = t0, .dur_ns = loop.launch_ns});
        if (s && loop.sync_ns) {
            s = w.add_cuda_call({.thread_id = thread,
                                 .op_id = kStreamSynchronize,
                                 .ts_ns = t0 + loop.sync_at_ns,
                                 .dur_ns = *loop.sync_ns});
        }
        s = s ? w.add_offcpu({.thread_id = thread,
                              .ts_ns = t0 + loop.offcpu_at_ns,
                              .dur_ns = loop.offcpu_ns,
                              .reason = loop.reason,
                              .runq_wait_ns = preempted ? loop.offcpu_ns : 0})
              : s;
        if (!s) {
            return s;
        }
    }
    return causeway::Ok{};
}

// One snapshot per 100 ms over the loop.
Status write_snapshots(TraceWriter& w, double cpu_busy_pct, std::int64_t procs_running) {
    for (std::int64_t ts = 100 * kMs; ts <= kLoopEndNs; ts += 100 * kMs) {
        Status s = w.add_snapshot({.ts_ns = ts,
                                   .cpu_busy_pct = cpu_busy_pct,
                                   .cpu_user_pct = cpu_busy_pct,
                                   .mem_total_bytes = 1LL << 34,
                                   .mem_available_bytes = 1LL << 33,
                                   .load1 = static_cast<double>(procs_running),
                                   .procs_running = procs_running});
        if (!s) {
            return s;
        }
    }
    return causeway::Ok{};
}

Status write_gpu_bound(TraceWriter& w) {
    // Asleep inside each synchronisation, waiting for the GPU, on an idle host.
    Status s = write_loop(w, {.launch_ns = 30 * kUs,
                              .sync_ns = 9 * kMs,
                              .offcpu_at_ns = 200 * kUs,
                              .offcpu_ns = 8 * kMs,
                              .reason = OffCpuReason::kBlocked});
    return s ? write_snapshots(w, 15, 1) : s;
}

Status write_healthy(TraceWriter& w) {
    // The thread's own work between the launch and the sync is hidden behind the device's queue.
    Status s = write_loop(w, {.sync_ns = 1900 * kUs,
                              .sync_at_ns = 8 * kMs,
                              .offcpu_at_ns = 5 * kMs,
                              .offcpu_ns = 100 * kUs});
    return s ? write_snapshots(w, 50, 1) : s;
}

Status write_host_bound(TraceWriter& w) {
    // A 1 ms sync, then 9 ms on a CPU with the device's queue empty.
    Status s = write_loop(w, {.sync_ns = 1 * kMs, .offcpu_at_ns = 5 * kMs, .offcpu_ns = 100 * kUs});
    return s ? write_snapshots(w, 50, 1) : s;
}

Status write_lossy(TraceWriter& w) {
    Status s = write_loop(w, {.offcpu_at_ns = 1 * kMs, .offcpu_ns = 10 * kUs});
    return s ? w.put_data_quality({.source = "cuda",
                                   .counter = "ringbuf_drops",
                                   .value = 1234,
                                   .severity = Severity::kDataLoss,
                                   .description = "CUDA events dropped: the ring buffer was full"})
             : s;
}

// Every step: the calls `step` writes for step i at t0, then 100 us preempted at 8 ms (too little
// to matter).
template <typename Step>
Status write_steps(TraceWriter& w, int steps, Step step) {
    auto trainer = add_trainer(w);
    if (!trainer) {
        return trainer.error();
    }
    const std::int64_t thread = trainer->thread;
    for (int i = 0; i < steps; ++i) {
        std::int64_t t0 = i * kPeriodNs;
        Status s = step(thread, t0);
        s = s ? w.add_offcpu({.thread_id = thread,
                              .ts_ns = t0 + 8 * kMs,
                              .dur_ns = 100 * kUs,
                              .reason = OffCpuReason::kPreempted,
                              .runq_wait_ns = 100 * kUs})
              : s;
        if (!s) {
            return s;
        }
    }
    return causeway::Ok{};
}

Status write_transfer_bound(TraceWriter& w) {
    // A 6 ms host-to-device copy of 64 MiB from pageable memory, then a launch.
    Status s = write_steps(w, kIterations, [&w](std::int64_t thread, std::int64_t t0) {
        Status c = w.add_cuda_call({.thread_id = thread,
                                    .op_id = kMemcpy,
                                    .ts_ns = t0,
                                    .dur_ns = 6 * kMs,
                                    .bytes = 64LL << 20,
                                    .copy_kind = 1,
                                    .host_pinned = 0});
        return c ? launch(w, thread, t0 + 6100 * kUs) : c;
    });
    return s ? write_snapshots(w, 50, 1) : s;
}

Status write_allocation_churn(TraceWriter& w) {
    // cudaMalloc (3.9 ms), a launch, cudaFree (3.8 ms) in every step.
    Status s = write_steps(w, kIterations, [&w](std::int64_t thread, std::int64_t t0) {
        Status c = w.add_cuda_call({.thread_id = thread,
                                    .op_id = kMalloc,
                                    .ts_ns = t0,
                                    .dur_ns = 3900 * kUs,
                                    .bytes = 256LL << 20});
        c = c ? launch(w, thread, t0 + 4 * kMs) : c;
        return c ? w.add_cuda_call({.thread_id = thread,
                                    .op_id = kFree,
                                    .ts_ns = t0 + 4100 * kUs,
                                    .dur_ns = 3800 * kUs})
                 : c;
    });
    return s ? write_snapshots(w, 50, 1) : s;
}

constexpr std::int64_t kColdStartEndNs = 900 * kMs;

Status write_cold_start(TraceWriter& w) {
    // An 800 ms first cudaMalloc, then 50 quick steps of 2 ms: malloc and launch.
    auto trainer = add_trainer(w);
    if (!trainer) {
        return trainer.error();
    }
    const std::int64_t thread = trainer->thread;
    Status s = w.add_cuda_call(
        {.thread_id = thread, .op_id = kMalloc, .ts_ns = 0, .dur_ns = 800 * kMs, .bytes = 1 << 20});
    for (int i = 0; s && i < 50; ++i) {
        std::int64_t t0 = 800 * kMs + i * 2 * kMs;
        s = w.add_cuda_call({.thread_id = thread,
                             .op_id = kMalloc,
                             .ts_ns = t0,
                             .dur_ns = 20 * kUs,
                             .bytes = 1 << 20});
        s = s ? launch(w, thread, t0 + 100 * kUs) : s;
    }
    return s ? w.add_offcpu({.thread_id = thread,
                             .ts_ns = 850 * kMs,
                             .dur_ns = 100 * kUs,
                             .reason = OffCpuReason::kPreempted,
                             .runq_wait_ns = 100 * kUs})
             : s;
}

// A launch and a 1 ms synchronisation every step, then a 6 ms sleep of the training thread at
// 2 ms, ended as `wake(step)` says (who woke it, what it slept in).
template <typename Wake>
Status write_sleeping_steps(TraceWriter& w, const Trainer& trainer, Wake wake) {
    for (int i = 0; i < kIterations; ++i) {
        std::int64_t t0 = i * kPeriodNs;
        Status s = launch(w, trainer.thread, t0);
        s = s ? w.add_cuda_call({.thread_id = trainer.thread,
                                 .op_id = kStreamSynchronize,
                                 .ts_ns = t0 + 50 * kUs,
                                 .dur_ns = 1 * kMs})
              : s;
        OffCpuRecord sleep = wake(i);
        sleep.thread_id = trainer.thread;
        sleep.ts_ns = t0 + 2 * kMs;
        sleep.dur_ns = 6 * kMs;
        sleep.reason = OffCpuReason::kBlocked;
        s = s ? w.add_offcpu(sleep) : s;
        if (!s) {
            return s;
        }
    }
    return causeway::Ok{};
}

Status write_lock_contended(TraceWriter& w) {
    // Each sleep is on a futex, ended by prep_locker (tid 140) of the same process.
    auto trainer = add_trainer(w);
    if (!trainer) {
        return trainer.error();
    }
    auto holder = w.add_thread({.tid = 140, .process_id = trainer->process, .comm = "prep_locker"});
    if (!holder) {
        return holder.error();
    }
    Status s = write_sleeping_steps(w, *trainer, [&holder](int) {
        return OffCpuRecord{.runq_wait_ns = 20 * kUs,
                            .wake_context = WakeContext::kThread,
                            .waker_thread_id = *holder,
                            .syscall_nr = kSysFutex};
    });
    return s ? write_snapshots(w, 50, 1) : s;
}

Status write_input_disk_timer(TraceWriter& w) {
    // Every other sleep is a disk read (iowait), the others clock_nanosleep; a hard interrupt
    // ends each, so no thread is named.
    auto trainer = add_trainer(w);
    if (!trainer) {
        return trainer.error();
    }
    Status s = write_sleeping_steps(w, *trainer, [](int step) {
        bool disk = step % 2 == 0;
        return OffCpuRecord{.runq_wait_ns = 10 * kUs,
                            .wake_context = WakeContext::kHardIrq,
                            .syscall_nr = disk ? kSysRead : kSysClockNanosleep,
                            .iowait = disk};
    });
    return s ? write_snapshots(w, 30, 1) : s;
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
    Status (*write)(TraceWriter&) = nullptr;
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
    SessionRecord session;
    session.host = "golden-host";
    session.kernel = "6.18.0";
    session.machine = "x86_64";
    session.cpu_count = 2;
    session.collector_version = "golden";
    session.source = "synthetic";
    auto writer = TraceWriter::create(argv[2], session);
    if (!writer) {
        return fail(writer.error().message);
    }
    if (write != nullptr) {
        if (Status s = write(*writer); !s) {
            return fail(s.error().message);
        }
    }
    if (Status s = writer->finish(stop_ns); !s) {
        return fail(s.error().message);
    }
    return 0;
}
