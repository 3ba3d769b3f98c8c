// analysis_synthetic_trace OUT.db CALLS: writes a DataLoader-like trace with CALLS CUDA calls (a
// training thread on 2 CPUs preempted by 4 pt_data_worker processes in a third of its
// synchronisations, and waiting for their batches between steps) for measuring the analysis at
// scale and trying the CLI by hand.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tests/support/trace_fixture.hpp"
#include "tracedb/writer.hpp"

using namespace causeway::testing;
using namespace causeway::tracedb;

namespace {

int fail(const std::string& what) {
    std::fprintf(stderr, "analysis_synthetic_trace: %s\n", what.c_str());
    return 1;
}

// Writes the trace and returns where it ends.
std::int64_t write_trace(TraceWriter& w, std::int64_t calls) {
    const std::int64_t main_process =
        must(w.add_process({.pid = 100, .comm = "python", .start_ns = 0}));
    const std::int64_t main_thread =
        must(w.add_thread({.tid = 100, .process_id = main_process, .comm = "python"}));
    std::int64_t workers[4];
    for (int k = 0; k < 4; ++k) {
        const std::int64_t worker = must(w.add_process(
            {.pid = 101 + k, .parent_id = main_process, .comm = "pt_data_worker", .start_ns = 0}));
        workers[k] =
            must(w.add_thread({.tid = 101 + k, .process_id = worker, .comm = "pt_data_worker"}));
    }
    // One iteration: copy, launch (with its driver call inside), synchronise.
    constexpr std::int64_t kPeriodNs = 400 * kUs;
    const std::int64_t iterations = calls / 4;
    for (std::int64_t i = 0; i < iterations; ++i) {
        const std::int64_t t0 = i * kPeriodNs;
        const bool slow = i % 3 == 0;
        must(w.add_cuda_call({.thread_id = main_thread,
                              .op_id = op::kMemcpyAsync,
                              .ts_ns = t0,
                              .dur_ns = 20 * kUs + (i % 7) * kUs,
                              .bytes = 1 << 20,
                              .copy_kind = 1,
                              .host_pinned = 1,
                              .stream_id = std::nullopt}));
        must(w.add_cuda_call({.thread_id = main_thread,
                              .op_id = op::kLaunchKernel,
                              .ts_ns = t0 + 40 * kUs,
                              .dur_ns = 8 * kUs + (i % 5) * kUs}));
        must(w.add_cuda_call({.thread_id = main_thread,
                              .op_id = op::kCuLaunchKernel,
                              .ts_ns = t0 + 42 * kUs,
                              .dur_ns = 4 * kUs}));
        const std::int64_t sync_ns = slow ? 300 * kUs : 50 * kUs + (i % 11) * kUs;
        must(w.add_cuda_call({.thread_id = main_thread,
                              .op_id = op::kStreamSynchronize,
                              .ts_ns = t0 + 60 * kUs,
                              .dur_ns = sync_ns}));
        if (slow) {
            must(w.add_offcpu({.thread_id = main_thread,
                               .ts_ns = t0 + 80 * kUs,
                               .dur_ns = 250 * kUs,
                               .reason = OffCpuReason::kPreempted,
                               .runq_wait_ns = 250 * kUs,
                               .next_thread_id = workers[i % 4]}));
        }
        // Then it waits for the next batch until the iteration ends: a poll on the workers'
        // queue that the worker whose batch it is ends.
        const std::int64_t sync_end = t0 + 60 * kUs + sync_ns;
        must(w.add_offcpu({.thread_id = main_thread,
                           .ts_ns = sync_end + 10 * kUs,
                           .dur_ns = t0 + kPeriodNs - 5 * kUs - (sync_end + 10 * kUs),
                           .reason = OffCpuReason::kBlocked,
                           .runq_wait_ns = 10 * kUs,
                           .wake_context = WakeContext::kThread,
                           .waker_thread_id = workers[(i + 1) % 4],
                           .syscall_nr = sys::kPoll}));
    }
    const std::int64_t end_ns = iterations * kPeriodNs;
    for (std::int64_t ts = kSecond; ts < end_ns; ts += kSecond) {
        must(w.add_snapshot({.ts_ns = ts,
                             .cpu_busy_pct = 100,
                             .mem_total_bytes = 1LL << 34,
                             .mem_available_bytes = 1LL << 33,
                             .load1 = 6,
                             .procs_running = 6}));
    }
    must(w.finish(end_ns));
    return end_ns;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: analysis_synthetic_trace OUT.db CALLS\n");
        return 2;
    }
    const std::int64_t calls = std::atoll(argv[2]);
    try {
        TraceWriter writer =
            must(TraceWriter::create(argv[1], synthetic_session("synthetic", "synthetic")));
        const std::int64_t end_ns = write_trace(writer, calls);
        std::printf("%s: %lld calls over %.1f s\n", argv[1], static_cast<long long>(calls / 4 * 4),
                    static_cast<double>(end_ns) / 1e9);
    } catch (const FixtureWriteError& e) {
        return fail(e.what());
    }
    return 0;
}
