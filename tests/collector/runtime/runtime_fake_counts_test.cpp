// b. A workload on the fake runtime with known call counts and durations.
#include <catch2/catch.hpp>

#include "bpf/causeway_abi.h"
#include "tests/collector/runtime/collector_process.hpp"
#include "tests/support/runtime_guard.hpp"
#include "tests/support/temp_dir.hpp"

using namespace causeway::testing;

namespace {

std::int64_t calls(const causeway::tracedb::TraceReader& trace, const std::string& op,
                   const std::string& condition = "1") {
    return query_int(trace,
                     "SELECT count(*) FROM cuda_call c JOIN cuda_op o ON o.id = c.op_id "
                     "WHERE o.name = '" +
                         op + "' AND " + condition);
}

// Records cw_fake_workload with `args` into a trace in `dir`.
causeway::tracedb::TraceReader record_fake_workload(const TempDir& dir,
                                                    const std::vector<std::string>& args) {
    std::string db = dir.file("fake.db");
    std::vector<std::string> argv{"--db", db, "--quiet", "--", CW_FAKE_WORKLOAD_BIN};
    argv.insert(argv.end(), args.begin(), args.end());
    auto run = run_collector(argv, dir.path());
    INFO(run.stderr_text);
    REQUIRE(run.exited_ok());
    return open_trace(db);
}

}  // namespace

TEST_CASE("a fake-runtime workload is recorded with exact counts and plausible durations") {
    require_runtime_or_skip();
    TempDir dir;
    const int n = 20;
    auto trace = record_fake_workload(dir, {"counts", std::to_string(n)});

    CHECK(calls(trace, "cudaMemcpy") == n);
    CHECK(calls(trace, "cudaMemcpyAsync") == n);
    CHECK(calls(trace, "cudaLaunchKernel") == n);
    CHECK(calls(trace, "cudaStreamSynchronize") == n);
    CHECK(calls(trace, "cudaMalloc") == 1);
    CHECK(calls(trace, "cudaFree") == 1);
    CHECK(calls(trace, "cudaMallocHost") == 1);
    CHECK(calls(trace, "cudaFreeHost") == 1);
    CHECK(calls(trace, "cudaStreamCreate") == 1);
    // The fake runtime calls the fake driver the way the real one does.
    CHECK(calls(trace, "cuLaunchKernel") == n);
    CHECK(calls(trace, "cudaMemcpy", "ret <> 0") == 0);

    // Arguments: sizes, direction, pinned vs pageable, one interned stream for the async ops.
    CHECK(calls(trace, "cudaMemcpy", "bytes = 65536 AND copy_kind = 1 AND host_pinned = 0") == n);
    CHECK(calls(trace, "cudaMemcpyAsync", "bytes = 65536 AND copy_kind = 1 AND host_pinned = 1") ==
          n);
    CHECK(calls(trace, "cudaMallocHost", "bytes = 1048576") == 1);
    CHECK(query_int(trace,
                    "SELECT count(DISTINCT stream_id) FROM cuda_call WHERE op_id IN "
                    "(7, 8, 9)") == 1);

    // Each synchronisation waits for a 2 ms kernel: its duration is about 2 ms (the machine may
    // be busy, so the upper bound is loose).
    auto median_sync_ns = query_int(
        trace, "SELECT dur_ns FROM cuda_call WHERE op_id = 9 ORDER BY dur_ns LIMIT 1 OFFSET 10");
    CHECK(median_sync_ns >= 1'800'000);
    CHECK(median_sync_ns <= 8'000'000);
    // Page allocations of the process, aggregated in buckets of the session's width.
    CHECK(query_int(trace, "SELECT sum(count) FROM page_alloc") > 0);
    CHECK(query_int(trace,
                    "SELECT count(*) FROM page_alloc a JOIN session s WHERE a.bucket_ns % "
                    "s.page_bucket_ns <> 0 OR a.bytes < 4096 * a.count") == 0);
    // The pinned host allocation costs FAKECUDA_HOST_ALLOC_NS (50 us) of CPU.
    CHECK(query_int(trace, "SELECT dur_ns FROM cuda_call WHERE op_id = 3") >= 50'000);
}

// A thread keeps its open calls in a slot found by its tid (bpf/open_calls.bpf.h), or in task
// storage when another thread holds that slot. Two threads that share a slot, calling at the same
// time, each have every call and every nested driver call recorded as theirs, with no return
// unmatched and no entry lost.
TEST_CASE("two threads whose tids share an open-call slot are both recorded exactly") {
    require_runtime_or_skip();
    TempDir dir;
    const int n = 200;
    auto trace = record_fake_workload(dir, {"shared-slot", std::to_string(n)});

    const std::string slots = std::to_string(CW_OPEN_CALL_SLOTS);
    const std::string sharer = "(SELECT tid FROM thread WHERE comm = 'cw_slot_sharer')";
    const std::string main_thread =
        "(SELECT t.tid FROM thread t JOIN process p ON p.id = t.process_id WHERE t.tid = p.pid AND "
        "p.in_tree = 1)";
    REQUIRE(query_int(trace, "SELECT " + sharer + " % " + slots + " = " + main_thread + " % " +
                                 slots + " AND " + sharer + " <> " + main_thread) == 1);
    for (const std::string& tid : {sharer, main_thread}) {
        INFO(tid);
        const std::string of_thread =
            "c.thread_id IN (SELECT id FROM thread WHERE tid = " + tid + ")";
        CHECK(calls(trace, "cudaLaunchKernel", of_thread) == n);
        CHECK(calls(trace, "cuLaunchKernel", of_thread) == n);
        // The main thread's first synchronisation took its slot before the sharer started.
        CHECK(calls(trace, "cudaDeviceSynchronize", of_thread) >= n);
    }
    CHECK(cuda_probe_counter(trace, "unmatched_returns") == 0);
    CHECK(cuda_probe_counter(trace, "entries_lost") == 0);
}
