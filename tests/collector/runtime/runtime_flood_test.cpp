// e. A flooded ring buffer: the trace reports the drops, and stored + dropped = calls made.
#include <catch2/catch.hpp>

#include "tests/collector/runtime/collector_process.hpp"
#include "tests/support/runtime_guard.hpp"
#include "tests/support/temp_dir.hpp"

using namespace causeway::testing;

TEST_CASE("a flooded ring buffer is reported as data loss, not silently missing events") {
    require_runtime_or_skip();
    TempDir dir;
    std::string db = dir.file("flood.db");
    const int n = 20000;
    // A 4 KiB ring holds about 64 calls; the collector drains it every 20 ms.
    auto run = run_collector({"--db", db, "--quiet", "--cuda-ring-size", "4096", "--",
                              CW_FAKE_WORKLOAD_BIN, "flood", std::to_string(n)},
                             dir.path());
    INFO(run.stderr_text);
    REQUIRE(run.exited_ok());
    auto trace = open_trace(db);

    auto drops = query_int(trace,
                           "SELECT value FROM data_quality WHERE source = 'cuda' AND "
                           "counter = 'ringbuf_drops'");
    CHECK(drops > 0);
    CHECK(query_int(trace,
                    "SELECT count(*) FROM data_quality WHERE source = 'cuda' AND "
                    "counter = 'ringbuf_drops' AND severity = 'data_loss'") == 1);
    // Every cudaDeviceSynchronize runs one cuCtxSynchronize in the driver: 2 records per call.
    auto stored = query_int(trace, "SELECT count(*) FROM cuda_call WHERE op_id IN (10, 108)");
    CHECK(stored < 2 * n);
    CHECK(stored + drops == 2 * n);
}
