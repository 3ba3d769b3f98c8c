// Importing the in-repository Ingero fixture (tests/fixtures/ingero/gen_small.py tells its story)
// and checking every converted table against what the fixture holds.
#include <catch2/catch.hpp>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "interop/ingero_import.hpp"
#include "tests/interop/ingero_fixture.hpp"
#include "tracedb/reader.hpp"

using namespace causeway;
using causeway::testing::query_int;
using causeway::testing::query_text;
using causeway::testing::TempDir;

namespace {

constexpr std::int64_t kMs = 1'000'000;

struct Imported {
    TempDir dir;
    std::string in_path = causeway::testing::build_ingero_fixture(dir);
    std::string out_path = dir.file("imported.db");
    std::string digest_before = causeway::testing::file_digest(in_path);
    Result<interop::ImportSummary> summary = interop::import_ingero(in_path, out_path, {});
};

tracedb::TraceReader open_trace(const std::string& path) {
    auto trace = tracedb::TraceReader::open(path);
    INFO((trace ? std::string() : trace.error().message));
    REQUIRE(trace);
    return std::move(trace.value());
}

}  // namespace

TEST_CASE("an Ingero trace imports into a trace that opens read-only, input untouched",
          "[interop][ingero]") {
    Imported run;
    INFO((run.summary ? std::string() : run.summary.error().message));
    REQUIRE(run.summary);
    CHECK(causeway::testing::file_digest(run.in_path) == run.digest_before);
    auto trace = open_trace(run.out_path);
    CHECK(query_text(trace, "SELECT source FROM session") == "import:ingero");
    CHECK(query_text(trace, "SELECT collector_version FROM session") == "ingero 0.8-test");
    CHECK(query_int(trace, "SELECT stop_ns FROM session") == 10'000 * kMs);
    CHECK(query_int(trace, "SELECT cpu_count FROM session") == 4);
    CHECK(query_int(trace, "SELECT mem_total_bytes FROM session") == 15969LL << 20);
    CHECK(query_text(trace, "SELECT gpu FROM session") == "NVIDIA Test GPU, 24564 MiB");
    CHECK(run.summary->events_read == 19);
    CHECK(run.summary->ingero_chains == 1);
    auto chains = nlohmann::json::parse(
        query_text(trace, "SELECT value FROM meta WHERE key = 'ingero.causal_chains'"));
    REQUIRE(chains.size() == 1);
    CHECK(chains[0]["cuda_op"] == "cudaMemcpyAsync");
    CHECK(chains[0]["recommendations"][0] == "Pin the process to dedicated cores");
}

TEST_CASE("Ingero pids and tids become processes, threads and the traced tree",
          "[interop][ingero]") {
    Imported run;
    REQUIRE(run.summary);
    auto trace = open_trace(run.out_path);
    CHECK(query_int(trace, "SELECT count(*) FROM process") == 3);
    CHECK(query_int(trace, "SELECT count(*) FROM thread") == 4);
    // 1010 was created by process_fork but its exit names thread group 1000: a thread.
    CHECK(query_int(trace,
                    "SELECT p.pid FROM thread t JOIN process p ON p.id = t.process_id "
                    "WHERE t.tid = 1010") == 1000);
    CHECK(query_int(trace, "SELECT start_ns FROM thread WHERE tid = 1010") == 100 * kMs);
    CHECK(query_int(trace, "SELECT exit_ns FROM thread WHERE tid = 1010") == 9'000 * kMs);
    // 1020 is a forked process: parent link, start and exit, inside the traced tree.
    CHECK(query_int(trace,
                    "SELECT p.pid FROM process c JOIN process p ON p.id = c.parent_id "
                    "WHERE c.pid = 1020") == 1000);
    CHECK(query_int(trace, "SELECT start_ns FROM process WHERE pid = 1020") == 200 * kMs);
    CHECK(query_int(trace, "SELECT exit_ns FROM process WHERE pid = 1020") == 9'100 * kMs);
    CHECK(query_int(trace, "SELECT in_tree FROM process WHERE pid = 1020") == 1);
    CHECK(query_int(trace, "SELECT in_tree FROM process WHERE pid = 1000") == 1);
    CHECK(query_int(trace, "SELECT in_tree FROM process WHERE pid = 500") == 0);
    CHECK(query_text(trace, "SELECT comm FROM process WHERE pid = 500") == "atopacctd");
}

TEST_CASE("Ingero CUDA events become calls with ops, sizes, copy kinds and stacks",
          "[interop][ingero]") {
    Imported run;
    REQUIRE(run.summary);
    auto trace = open_trace(run.out_path);
    CHECK(query_int(trace, "SELECT count(*) FROM cuda_call") == 7);
    CHECK(run.summary->cuda_calls == 7);
    const std::string copy =
        "SELECT {} FROM cuda_call c JOIN cuda_op o ON o.id = c.op_id "
        "WHERE o.name = 'cudaMemcpyAsync'";
    auto memcpy_column = [&](const char* column) {
        std::string sql = copy;
        return query_int(trace, sql.replace(sql.find("{}"), 2, column));
    };
    CHECK(memcpy_column("c.ts_ns") == 1'500 * kMs);
    CHECK(memcpy_column("c.dur_ns") == 50 * kMs);
    CHECK(memcpy_column("c.bytes") == 4096);
    CHECK(memcpy_column("c.copy_kind") == 1);
    CHECK(memcpy_column("c.host_pinned IS NULL") == 1);
    // Ingero names differ from the exported symbols for some ops.
    CHECK(query_int(trace, "SELECT count(*) FROM cuda_call WHERE op_id = 9") == 1);
    CHECK(query_int(trace, "SELECT bytes FROM cuda_call WHERE op_id = 106") == 1048576);
    // An op Causeway does not record itself gets an id above 1000.
    CHECK(query_int(trace, "SELECT id FROM cuda_op WHERE name = 'cuMemcpy'") > 1000);
    CHECK(query_text(trace, "SELECT api || '/' || category FROM cuda_op WHERE name = 'cuMemcpy'") ==
          "driver/copy");
    CHECK(query_int(trace,
                    "SELECT c.bytes FROM cuda_call c JOIN cuda_op o ON o.id = c.op_id "
                    "WHERE o.name = 'cuMemcpy'") == 8192);
    // Runtime calls contain their driver calls, as recorded.
    CHECK(query_int(trace,
                    "SELECT count(*) FROM cuda_call r, cuda_call d WHERE r.op_id = 8 AND "
                    "d.op_id = 101 AND d.ts_ns >= r.ts_ns AND "
                    "d.ts_ns + d.dur_ns <= r.ts_ns + r.dur_ns") == 1);
    // One stack per (process, Ingero hash), native and Python frames.
    CHECK(query_int(trace, "SELECT count(*) FROM stack") == 2);
    CHECK(query_int(trace,
                    "SELECT count(DISTINCT stack_id) FROM cuda_call WHERE op_id IN (1, 106)") == 1);
    CHECK(query_text(trace,
                     "SELECT f.symbol FROM cuda_call c JOIN stack_frame f ON "
                     "f.stack_id = c.stack_id WHERE c.op_id = 1 AND f.depth = 1") == "cudaMalloc");
    CHECK(query_int(trace,
                    "SELECT f.offset FROM cuda_call c JOIN stack_frame f ON "
                    "f.stack_id = c.stack_id WHERE c.op_id = 1 AND f.depth = 1") == 0x1cb);
    CHECK(query_text(trace,
                     "SELECT f.module || ' ' || f.symbol FROM cuda_call c JOIN stack_frame "
                     "f ON f.stack_id = c.stack_id WHERE c.op_id = 7 AND f.depth = 0") ==
          "/home/user/train.py:42 to_device");
}

TEST_CASE("Ingero sched_switch becomes off-CPU intervals of traced threads only",
          "[interop][ingero]") {
    Imported run;
    REQUIRE(run.summary);
    auto trace = open_trace(run.out_path);
    CHECK(query_int(trace, "SELECT count(*) FROM offcpu") == 4);
    // Ingero stamps the switch back in: the interval is [ts - duration, ts).
    CHECK(query_int(trace,
                    "SELECT count(*) FROM offcpu WHERE ts_ns = 1520000000 AND "
                    "dur_ns = 20000000") == 1);
    // A wakeup inside the interval proves it blocked and gives the run-queue wait.
    CHECK(query_int(trace, "SELECT runq_wait_ns FROM offcpu WHERE ts_ns = 3000000000") == 5 * kMs);
    // Begun before the trace: clipped to start at 0.
    CHECK(query_int(trace, "SELECT dur_ns FROM offcpu WHERE ts_ns = 0") == 50 * kMs);
    CHECK(query_int(trace,
                    "SELECT count(*) FROM offcpu WHERE cpu = -1 AND "
                    "next_thread_id IS NULL") == 4);
    CHECK(query_int(trace,
                    "SELECT count(*) FROM offcpu o JOIN thread t ON t.id = o.thread_id "
                    "WHERE t.tid = 500") == 0);
}

TEST_CASE("Ingero per-minute aggregates become event_count and page_alloc rows",
          "[interop][ingero]") {
    Imported run;
    REQUIRE(run.summary);
    auto trace = open_trace(run.out_path);
    const std::string launch = "FROM event_count WHERE event = 'cudaLaunchKernel'";
    CHECK(query_int(trace, "SELECT count " + launch) == 500);
    CHECK(query_int(trace, "SELECT stored " + launch) == 1);
    // Ingero's minute began 40 s before the trace: the bucket is clipped to the trace's start.
    CHECK(query_int(trace, "SELECT bucket_ns " + launch) == 0);
    CHECK(query_int(trace, "SELECT bucket_dur_ns " + launch) == 20'000 * kMs);
    // Threads' counts add up into their process (1000 with its thread 1010).
    CHECK(query_int(trace,
                    "SELECT e.count FROM event_count e JOIN process p ON "
                    "p.id = e.process_id WHERE e.event = 'sched_switch' AND "
                    "p.pid = 1000") == 45);
    CHECK(query_int(trace,
                    "SELECT e.stored FROM event_count e JOIN process p ON "
                    "p.id = e.process_id WHERE e.event = 'sched_switch' AND "
                    "p.pid = 1000") == 4);
    CHECK(query_int(trace,
                    "SELECT count FROM event_count WHERE event = 'sched_wakeup' AND "
                    "process_id IS NULL") == 20);
    CHECK(query_int(trace, "SELECT count FROM event_count WHERE event = 'net_send'") == 1);
    CHECK(query_text(trace, "SELECT p.count || '/' || p.bytes FROM page_alloc p") == "300/1228800");
    CHECK(query_int(trace, "SELECT count(*) FROM system_snapshot") == 3);
    CHECK(query_int(trace, "SELECT cpu_busy_pct FROM system_snapshot WHERE ts_ns = 2000000000") ==
          75);
}

TEST_CASE("what Ingero did not record is said plainly, in data_quality and the summary",
          "[interop][ingero]") {
    Imported run;
    REQUIRE(run.summary);
    auto trace = open_trace(run.out_path);
    CHECK(query_int(trace, "SELECT count(*) FROM data_quality") ==
          static_cast<std::int64_t>(run.summary->limits.size()));
    CHECK(query_text(trace,
                     "SELECT description FROM data_quality WHERE counter = "
                     "'sched_switch_counts_only'")
              .rfind("sched_switch for 3 processes only as per-minute counts", 0) == 0);
    CHECK(query_int(trace,
                    "SELECT value FROM data_quality WHERE counter = "
                    "'sched_switch_counts_only'") == 58);
    CHECK(query_text(trace,
                     "SELECT severity FROM data_quality WHERE counter = "
                     "'sched_switch_counts_only'") == "data_loss");
    CHECK(query_int(trace,
                    "SELECT value FROM data_quality WHERE counter = "
                    "'cudaLaunchKernel_counts_only'") == 499);
    CHECK(query_int(trace,
                    "SELECT value FROM data_quality WHERE counter = "
                    "'offcpu_reason_unknown'") == 3);
    CHECK(query_text(trace,
                     "SELECT description FROM data_quality WHERE counter = "
                     "'offcpu_reason_unknown'")
              .find("CPU contention cannot be proven") != std::string::npos);
    CHECK(query_int(trace,
                    "SELECT count(*) FROM data_quality WHERE counter = "
                    "'net_send_counts_only' AND source = 'net'") == 1);
    CHECK(query_int(trace,
                    "SELECT count(*) FROM data_quality WHERE counter = "
                    "'offcpu_clipped_at_start'") == 1);
}

TEST_CASE("bad import inputs are refused with what is wrong, leaving nothing behind",
          "[interop][ingero]") {
    TempDir dir;
    const auto in_path = causeway::testing::build_ingero_fixture(dir);
    const auto out_path = dir.file("out.db");

    SECTION("a missing input") {
        auto result = interop::import_ingero(dir.file("nope.db"), out_path, {});
        REQUIRE_FALSE(result);
        CHECK_THAT(result.error().message, Catch::Contains("no such file"));
        CHECK_FALSE(std::filesystem::exists(out_path));
    }
    SECTION("an existing output is never overwritten") {
        REQUIRE(interop::import_ingero(in_path, out_path, {}));
        const auto digest = causeway::testing::file_digest(out_path);
        auto again = interop::import_ingero(in_path, out_path, {});
        REQUIRE_FALSE(again);
        CHECK_THAT(again.error().message, Catch::Contains("already exists"));
        CHECK(causeway::testing::file_digest(out_path) == digest);
    }
    SECTION("a Causeway trace is not imported again") {
        REQUIRE(interop::import_ingero(in_path, out_path, {}));
        auto result = interop::import_ingero(out_path, dir.file("twice.db"), {});
        REQUIRE_FALSE(result);
        CHECK_THAT(result.error().message, Catch::Contains("already a Causeway trace"));
        CHECK_FALSE(std::filesystem::exists(dir.file("twice.db")));
    }
    SECTION("another SQLite database") {
        const auto other = dir.file("other.db");
        sqlite3* raw = nullptr;
        REQUIRE(sqlite3_open(other.c_str(), &raw) == SQLITE_OK);
        tracedb::Database db(raw);
        REQUIRE(db.exec("CREATE TABLE orders (id INTEGER)"));
        auto result = interop::import_ingero(other, out_path, {});
        REQUIRE_FALSE(result);
        CHECK_THAT(result.error().message, Catch::Contains("not an Ingero trace"));
        CHECK_THAT(result.error().message, Catch::Contains("orders"));
        CHECK_FALSE(std::filesystem::exists(out_path));
    }
    SECTION("--node on a single-node recording") {
        auto result = interop::import_ingero(in_path, out_path, {.node = "gpu-node-01"});
        REQUIRE_FALSE(result);
        CHECK_THAT(result.error().message, Catch::Contains("single-node"));
        CHECK_FALSE(std::filesystem::exists(out_path));
    }
}
