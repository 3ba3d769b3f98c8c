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

#include "tests/support/trace_fixture.hpp"
#include "tracedb/writer.hpp"

using namespace causeway::testing;
using namespace causeway::tracedb;

namespace {

constexpr int kIterations = 200;

int fail(const std::string& what) {
    std::fprintf(stderr, "causeway-fleet-fixture: %s\n", what.c_str());
    return 1;
}

// The docker container of the starved node's feeder (its cgroup path names it).
constexpr const char* kFeederContainer =
    "3f2a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8";

// One iteration of the training loop at t0_ns; `feeder` ends the starved node's sleep.
void iteration(TraceWriter& w, std::int64_t thread, std::int64_t feeder, std::int64_t t0_ns,
               bool starved) {
    must(w.add_cuda_call({.thread_id = thread,
                          .op_id = op::kMemcpyAsync,
                          .ts_ns = t0_ns,
                          .dur_ns = 100 * kUs,
                          .bytes = 1 << 20,
                          .copy_kind = 1,
                          .host_pinned = 1}));
    must(w.add_cuda_call({.thread_id = thread,
                          .op_id = op::kLaunchKernel,
                          .ts_ns = t0_ns + 200 * kUs,
                          .dur_ns = 20 * kUs}));
    must(w.add_cuda_call({.thread_id = thread,
                          .op_id = op::kStreamSynchronize,
                          .ts_ns = t0_ns + 300 * kUs,
                          .dur_ns = starved ? 1 * kMs : 8 * kMs}));
    if (starved) {
        // Asleep on the pipe the next batch comes through, outside any CUDA call.
        must(w.add_offcpu({.thread_id = thread,
                           .ts_ns = t0_ns + 1500 * kUs,
                           .dur_ns = 17 * kMs,
                           .reason = OffCpuReason::kBlocked,
                           .runq_wait_ns = 50 * kUs,
                           .wake_context = WakeContext::kThread,
                           .waker_thread_id = feeder,
                           .syscall_nr = sys::kRead,
                           .iowait = false}));
        return;
    }
    // Asleep inside the synchronisation: the GPU is busy.
    must(w.add_offcpu({.thread_id = thread,
                       .ts_ns = t0_ns + 400 * kUs,
                       .dur_ns = 7500 * kUs,
                       .reason = OffCpuReason::kBlocked}));
}

void write_node(TraceWriter& w, bool starved) {
    const std::int64_t process = must(w.add_process({.pid = 100, .comm = "python", .start_ns = 0}));
    const std::int64_t thread =
        must(w.add_thread({.tid = 100, .process_id = process, .comm = "python"}));
    const std::int64_t feeder_process =
        must(w.add_process({.pid = 300, .comm = "feeder", .in_tree = false}));
    const std::int64_t feeder =
        must(w.add_thread({.tid = 300, .process_id = feeder_process, .comm = "feeder"}));
    must(w.add_cgroup_sample({.ts_ns = 0,
                              .process_id = feeder_process,
                              .version = 2,
                              .path = std::string("/docker/") + kFeederContainer}));
    const std::int64_t period_ns = starved ? 20 * kMs : 10 * kMs;
    for (int i = 0; i < kIterations; ++i) {
        iteration(w, thread, feeder, i * period_ns, starved);
    }
    const std::int64_t end_ns = kIterations * period_ns;
    add_snapshots(w, end_ns, 30, 1);
    must(w.finish(end_ns));
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 4 || (std::string(argv[3]) != "gpu-bound" && std::string(argv[3]) != "starved")) {
        std::fprintf(stderr, "usage: causeway-fleet-fixture OUT.db HOST gpu-bound|starved\n");
        return 2;
    }
    try {
        TraceWriter writer =
            must(TraceWriter::create(argv[1], synthetic_session(argv[2], "fixture")));
        write_node(writer, std::string(argv[3]) == "starved");
    } catch (const FixtureWriteError& e) {
        return fail(e.what());
    }
    return 0;
}
