// causeway-golden-trace KIND OUT.db: writes one of the small, fully deterministic traces the
// golden output tests run every output on (tests/golden/README.md), each giving one verdict class
// the other fixtures do not:
//   gpu-bound  a training thread asleep inside long synchronisations on an idle host (GPU-BOUND)
//   healthy    a loop with no cause above threshold (HEALTHY)
//   lossy      launches only, with 1234 CUDA events dropped by the ring buffer (the loss shown
//              next to the verdict)
//   empty      a finished trace with nothing in it (INSUFFICIENT-DATA: no CUDA calls)
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
constexpr std::int64_t kLaunchKernel = 8;
constexpr std::int64_t kStreamSynchronize = 9;

constexpr int kIterations = 200;
constexpr std::int64_t kPeriodNs = 10 * kMs;
constexpr std::int64_t kLoopEndNs = kIterations * kPeriodNs;

// The training loop of every non-empty fixture: a python process (pid 100) whose thread launches
// a kernel every 10 ms, may synchronise after it, and is off its CPU once per iteration.
struct Loop {
    std::int64_t launch_ns = 20 * kUs;
    std::optional<std::int64_t> sync_ns{};  // a cudaStreamSynchronize 100 us after the launch
    std::int64_t offcpu_at_ns = 0;          // since the iteration's start
    std::int64_t offcpu_ns = 0;
    OffCpuReason reason = OffCpuReason::kPreempted;  // preempted: all of it waiting for a CPU
};

Status write_loop(TraceWriter& w, const Loop& loop) {
    auto process = w.add_process({.pid = 100, .comm = "python", .start_ns = 0});
    if (!process) {
        return process.error();
    }
    auto thread = w.add_thread({.tid = 100, .process_id = *process, .comm = "python"});
    if (!thread) {
        return thread.error();
    }
    const bool preempted = loop.reason == OffCpuReason::kPreempted;
    for (int i = 0; i < kIterations; ++i) {
        std::int64_t t0 = i * kPeriodNs;
        Status s = w.add_cuda_call(
            {.thread_id = *thread, .op_id = kLaunchKernel, .ts_ns = t0, .dur_ns = loop.launch_ns});
        if (s && loop.sync_ns) {
            s = w.add_cuda_call({.thread_id = *thread,
                                 .op_id = kStreamSynchronize,
                                 .ts_ns = t0 + 100 * kUs,
                                 .dur_ns = *loop.sync_ns});
        }
        s = s ? w.add_offcpu({.thread_id = *thread,
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

int fail(const std::string& what) {
    std::fprintf(stderr, "causeway-golden-trace: %s\n", what.c_str());
    return 1;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: causeway-golden-trace gpu-bound|healthy|lossy|empty OUT.db\n");
        return 2;
    }
    const std::string kind = argv[1];
    Status (*write)(TraceWriter&) = nullptr;
    std::int64_t stop_ns = kLoopEndNs;
    if (kind == "gpu-bound") {
        write = write_gpu_bound;
    } else if (kind == "healthy") {
        write = write_healthy;
    } else if (kind == "lossy") {
        write = write_lossy;
    } else if (kind == "empty") {
        stop_ns = 1 * kMs;
    } else {
        return fail("unknown kind '" + kind + "': give gpu-bound, healthy, lossy or empty");
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
