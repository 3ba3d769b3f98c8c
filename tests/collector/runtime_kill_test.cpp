// f. kill -9 during recording leaves a DB that opens and holds what was committed.
#include <signal.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "tests/collector/collector_process.hpp"
#include "tests/support/runtime_guard.hpp"
#include "tests/support/temp_dir.hpp"

using namespace causeway::testing;

TEST_CASE("a collector killed with SIGKILL leaves a trace that opens") {
    require_runtime_or_skip();
    TempDir dir;
    std::string db = dir.file("killed.db");
    pid_t collector = spawn({collector_path(), "record", "--db", db, "--quiet", "--",
                             CW_FAKE_WORKLOAD_BIN, "counts", "3000"});
    sleep(3);  // commits happen once a second
    kill(collector, SIGKILL);
    wait_for(collector);
    auto trace = open_trace(db);
    // The workload outlives the collector: stop it (it may also be held at a dlopen).
    auto workload = query_int(trace,
                              "SELECT pid FROM process WHERE in_tree = 1 AND parent_id "
                              "IS NULL");
    kill(static_cast<pid_t>(workload), SIGKILL);

    CHECK(query_int(trace, "SELECT count(*) FROM session WHERE stop_ns IS NULL") == 1);
    CHECK(query_int(trace, "SELECT count(*) FROM cuda_call WHERE op_id = 9") > 0);
    CHECK(query_int(trace, "SELECT count(*) FROM probe WHERE attached = 1") > 0);
}
