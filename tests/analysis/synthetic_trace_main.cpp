// analysis_synthetic_trace OUT.db CALLS: writes a DataLoader-like trace with CALLS CUDA calls (a
// training thread on 2 CPUs preempted by 4 pt_data_worker processes in a third of its
// synchronisations, and waiting for their batches between steps) for measuring the analysis at
// scale and trying the CLI by hand.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tracedb/writer.hpp"

using causeway::Status;
using namespace causeway::tracedb;

namespace {

constexpr std::int64_t kUs = 1'000;
constexpr std::int64_t kMs = 1'000'000;
constexpr std::int64_t kSysPoll = 7;  // x86_64

int fail(const std::string& what) {
    std::fprintf(stderr, "analysis_synthetic_trace: %s\n", what.c_str());
    return 1;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: analysis_synthetic_trace OUT.db CALLS\n");
        return 2;
    }
    std::int64_t calls = std::atoll(argv[2]);
    SessionRecord session;
    session.host = "synthetic";
    session.kernel = "6.18.0";
    session.cpu_count = 2;
    session.collector_version = "synthetic";
    session.source = "synthetic";
    auto writer = TraceWriter::create(argv[1], session);
    if (!writer) {
        return fail(writer.error().message);
    }
    TraceWriter& w = *writer;
    auto main_process = w.add_process({.pid = 100, .comm = "python", .start_ns = 0});
    auto main_thread =
        w.add_thread({.tid = 100, .process_id = main_process.value(), .comm = "python"});
    std::int64_t workers[4];
    for (int k = 0; k < 4; ++k) {
        auto p = w.add_process({.pid = 101 + k,
                                .parent_id = main_process.value(),
                                .comm = "pt_data_worker",
                                .start_ns = 0});
        workers[k] =
            w.add_thread({.tid = 101 + k, .process_id = p.value(), .comm = "pt_data_worker"})
                .value();
    }
    // One iteration: copy, launch (with its driver call inside), synchronise.
    constexpr std::int64_t kPeriodNs = 400 * kUs;
    std::int64_t iterations = calls / 4;
    for (std::int64_t i = 0; i < iterations; ++i) {
        std::int64_t t0 = i * kPeriodNs;
        bool slow = i % 3 == 0;
        // A failed write skips the rest of the iteration and ends the program below.
        Status s = w.add_cuda_call({.thread_id = main_thread.value(),
                                    .op_id = 7,
                                    .ts_ns = t0,
                                    .dur_ns = 20 * kUs + (i % 7) * kUs,
                                    .bytes = 1 << 20,
                                    .copy_kind = 1,
                                    .host_pinned = 1,
                                    .stream_id = std::nullopt});
        s = s ? w.add_cuda_call({.thread_id = main_thread.value(),
                                 .op_id = 8,
                                 .ts_ns = t0 + 40 * kUs,
                                 .dur_ns = 8 * kUs + (i % 5) * kUs})
              : s;
        s = s ? w.add_cuda_call({.thread_id = main_thread.value(),
                                 .op_id = 101,
                                 .ts_ns = t0 + 42 * kUs,
                                 .dur_ns = 4 * kUs})
              : s;
        s = s ? w.add_cuda_call({.thread_id = main_thread.value(),
                                 .op_id = 9,
                                 .ts_ns = t0 + 60 * kUs,
                                 .dur_ns = slow ? 300 * kUs : 50 * kUs + (i % 11) * kUs})
              : s;
        if (slow) {
            s = s ? w.add_offcpu({.thread_id = main_thread.value(),
                                  .ts_ns = t0 + 80 * kUs,
                                  .dur_ns = 250 * kUs,
                                  .reason = OffCpuReason::kPreempted,
                                  .runq_wait_ns = 250 * kUs,
                                  .next_thread_id = workers[i % 4]})
                  : s;
        }
        // Then it waits for the next batch until the iteration ends: a poll on the workers'
        // queue that the worker whose batch it is ends.
        const std::int64_t sync_end =
            t0 + 60 * kUs + (slow ? 300 * kUs : 50 * kUs + (i % 11) * kUs);
        s = s ? w.add_offcpu({.thread_id = main_thread.value(),
                              .ts_ns = sync_end + 10 * kUs,
                              .dur_ns = t0 + kPeriodNs - 5 * kUs - (sync_end + 10 * kUs),
                              .reason = OffCpuReason::kBlocked,
                              .runq_wait_ns = 10 * kUs,
                              .wake_context = WakeContext::kThread,
                              .waker_thread_id = workers[(i + 1) % 4],
                              .syscall_nr = kSysPoll})
              : s;
        if (!s) {
            return fail(s.error().message);
        }
    }
    std::int64_t end_ns = iterations * kPeriodNs;
    for (std::int64_t ts = kMs * 1000; ts < end_ns; ts += kMs * 1000) {
        Status s = w.add_snapshot({.ts_ns = ts,
                                   .cpu_busy_pct = 100,
                                   .mem_total_bytes = 1LL << 34,
                                   .mem_available_bytes = 1LL << 33,
                                   .load1 = 6,
                                   .procs_running = 6});
        if (!s) {
            return fail(s.error().message);
        }
    }
    if (auto s = w.finish(end_ns); !s) {
        return fail(s.error().message);
    }
    std::printf("%s: %lld calls over %.1f s\n", argv[1], static_cast<long long>(iterations * 4),
                static_cast<double>(end_ns) / 1e9);
    return 0;
}
