// --pid: attaching to a process that is already running (its threads predate the recording).
#include <signal.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "tests/collector/collector_process.hpp"
#include "tests/support/runtime_guard.hpp"
#include "tests/support/temp_dir.hpp"

using namespace causeway::testing;

TEST_CASE("a running process is traced with --pid until --duration") {
    require_runtime_or_skip();
    TempDir dir;
    pid_t workload = spawn({CW_FAKE_WORKLOAD_BIN, "counts", "2500"});  // about 5 s of work
    usleep(500'000);  // let it load the runtime and start its device thread
    std::string db = dir.file("attached.db");
    std::string pid = std::to_string(workload);
    auto run =
        run_collector({"--db", db, "--quiet", "--pid", pid, "--duration", "1.5"}, dir.path());
    kill(workload, SIGKILL);
    wait_for(workload);
    INFO(run.stderr_text);
    REQUIRE(run.exited_ok());
    auto trace = open_trace(db);

    CHECK(query_int(trace, "SELECT count(*) FROM session WHERE command_line = 'pid " + pid +
                               "' AND stop_ns BETWEEN 1400000000 AND 4000000000") == 1);
    // The process and all its threads existed before: no start times, none minted late.
    CHECK(query_int(trace, "SELECT count(*) FROM process WHERE pid = " + pid +
                               " AND in_tree = 1 AND start_ns IS NULL") == 1);
    CHECK(query_int(trace,
                    "SELECT count(*) FROM thread t JOIN process p ON p.id = t.process_id "
                    "WHERE p.pid = " +
                        pid) >= 2);
    CHECK(query_int(trace,
                    "SELECT value FROM data_quality WHERE counter = "
                    "'threads_seen_late'") == 0);
    // Its runtime was found through its memory maps, and its calls recorded.
    CHECK(query_int(trace,
                    "SELECT count(*) FROM probe WHERE library LIKE '%/fakecuda/libcudart"
                    ".so.13' AND attached = 1") > 0);
    CHECK(query_int(trace, "SELECT count(*) FROM cuda_call WHERE op_id = 9") >= 10);
    CHECK(query_int(trace, "SELECT count(*) FROM thread_sched_total") >= 2);
}
