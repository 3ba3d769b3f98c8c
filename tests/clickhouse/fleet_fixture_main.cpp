// causeway-fleet-fixture OUT.db HOST gpu-bound|starved: one node of a four-node training job,
// written with the project's TraceWriter, for the ClickHouse tests.
//   gpu-bound: every 10 ms a pinned copy, a launch and an 8 ms synchronisation the thread sleeps
//              in: the loop runs at 300 calls/s and the GPU is the limit.
//   starved:   the same three calls every 20 ms, then 17 ms asleep on a pipe waiting for the
//              next batch with idle CPUs, which a feeder process outside the job writes from a
//              docker container: it starves the loop (INPUT-BOUND by the feeder in container
//              kFeederContainer, 150 calls/s).
#include <cstdio>
#include <string>

#include "tracedb/writer.hpp"

using causeway::Status;
using namespace causeway::tracedb;

namespace {

constexpr std::int64_t kUs = 1'000;
constexpr std::int64_t kMs = 1'000'000;
constexpr int kIterations = 200;
// cuda_op ids of schemas/trace.sql.
constexpr std::int64_t kMemcpyAsync = 7;
constexpr std::int64_t kLaunchKernel = 8;
constexpr std::int64_t kStreamSynchronize = 9;

int fail(const std::string& what) {
    std::fprintf(stderr, "causeway-fleet-fixture: %s\n", what.c_str());
    return 1;
}

// The docker container of the starved node's feeder (its cgroup path names it).
constexpr const char* kFeederContainer =
    "3f2a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8";
constexpr std::int64_t kRead = 0;  // x86-64 read(2): the sleep on the pipe

// One iteration of the training loop at t0_ns; `feeder` ends the starved node's sleep. A failed
// write is returned.
Status iteration(TraceWriter& w, std::int64_t thread, std::int64_t feeder, std::int64_t t0_ns,
                 bool starved) {
    Status s = w.add_cuda_call({.thread_id = thread,
                                .op_id = kMemcpyAsync,
                                .ts_ns = t0_ns,
                                .dur_ns = 100 * kUs,
                                .bytes = 1 << 20,
                                .copy_kind = 1,
                                .host_pinned = 1});
    s = s ? w.add_cuda_call({.thread_id = thread,
                             .op_id = kLaunchKernel,
                             .ts_ns = t0_ns + 200 * kUs,
                             .dur_ns = 20 * kUs})
          : s;
    std::int64_t sync_ns = starved ? 1 * kMs : 8 * kMs;
    s = s ? w.add_cuda_call({.thread_id = thread,
                             .op_id = kStreamSynchronize,
                             .ts_ns = t0_ns + 300 * kUs,
                             .dur_ns = sync_ns})
          : s;
    if (!s) {
        return s;
    }
    if (starved) {
        // Asleep on the pipe the next batch comes through, outside any CUDA call.
        return w.add_offcpu({.thread_id = thread,
                             .ts_ns = t0_ns + 1500 * kUs,
                             .dur_ns = 17 * kMs,
                             .reason = OffCpuReason::kBlocked,
                             .runq_wait_ns = 50 * kUs,
                             .wake_context = WakeContext::kThread,
                             .waker_thread_id = feeder,
                             .syscall_nr = kRead,
                             .iowait = false});
    }
    // Asleep inside the synchronisation: the GPU is busy.
    return w.add_offcpu({.thread_id = thread,
                         .ts_ns = t0_ns + 400 * kUs,
                         .dur_ns = 7500 * kUs,
                         .reason = OffCpuReason::kBlocked});
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 4 || (std::string(argv[3]) != "gpu-bound" && std::string(argv[3]) != "starved")) {
        std::fprintf(stderr, "usage: causeway-fleet-fixture OUT.db HOST gpu-bound|starved\n");
        return 2;
    }
    bool starved = std::string(argv[3]) == "starved";
    SessionRecord session;
    session.host = argv[2];
    session.kernel = "6.18.0";
    session.cpu_count = 2;
    session.collector_version = "fixture";
    session.source = "synthetic";
    auto writer = TraceWriter::create(argv[1], session);
    if (!writer) {
        return fail(writer.error().message);
    }
    TraceWriter& w = *writer;
    auto process = w.add_process({.pid = 100, .comm = "python", .start_ns = 0});
    if (!process) {
        return fail(process.error().message);
    }
    auto thread = w.add_thread({.tid = 100, .process_id = *process, .comm = "python"});
    if (!thread) {
        return fail(thread.error().message);
    }
    auto feeder_process = w.add_process({.pid = 300, .comm = "feeder", .in_tree = false});
    if (!feeder_process) {
        return fail(feeder_process.error().message);
    }
    auto feeder = w.add_thread({.tid = 300, .process_id = *feeder_process, .comm = "feeder"});
    if (!feeder) {
        return fail(feeder.error().message);
    }
    if (auto s = w.add_cgroup_sample({.ts_ns = 0,
                                      .process_id = *feeder_process,
                                      .version = 2,
                                      .path = std::string("/docker/") + kFeederContainer});
        !s) {
        return fail(s.error().message);
    }
    std::int64_t period_ns = starved ? 20 * kMs : 10 * kMs;
    for (int i = 0; i < kIterations; ++i) {
        if (auto s = iteration(w, *thread, *feeder, i * period_ns, starved); !s) {
            return fail(s.error().message);
        }
    }
    std::int64_t end_ns = kIterations * period_ns;
    for (std::int64_t ts = 100 * kMs; ts <= end_ns; ts += 100 * kMs) {
        if (auto s = w.add_snapshot({.ts_ns = ts,
                                     .cpu_busy_pct = 30,
                                     .cpu_user_pct = 30,
                                     .mem_total_bytes = 1LL << 34,
                                     .mem_available_bytes = 1LL << 33,
                                     .load1 = 1,
                                     .procs_running = 1});
            !s) {
            return fail(s.error().message);
        }
    }
    if (auto s = w.finish(end_ns); !s) {
        return fail(s.error().message);
    }
    return 0;
}
