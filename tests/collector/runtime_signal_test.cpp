// SIGINT and SIGTERM stop a recording cleanly: everything flushed, the file closed, exit 0.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "tests/collector/collector_process.hpp"
#include "tests/support/runtime_guard.hpp"
#include "tests/support/temp_dir.hpp"

using namespace causeway::testing;

TEST_CASE("SIGINT or SIGTERM flushes and closes the trace") {
    require_runtime_or_skip();
    int signo = GENERATE(SIGINT, SIGTERM);
    INFO("signal " << signo);
    TempDir dir;
    std::string db = dir.file("stopped.db");
    pid_t collector = spawn({collector_path(), "record", "--db", db, "--quiet", "--",
                             CW_FAKE_WORKLOAD_BIN, "counts", "5000"},
                            dir.file("stderr"));
    sleep(2);
    kill(collector, signo);
    int status = wait_for(collector);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    // Closed: no WAL left behind (one self-contained file), stop time written.
    CHECK_FALSE(std::filesystem::exists(db + "-wal"));
    auto trace = open_trace(db);
    CHECK(query_int(trace,
                    "SELECT count(*) FROM session WHERE stop_ns BETWEEN 1500000000 AND "
                    "10000000000") == 1);
    CHECK(query_int(trace, "SELECT count(*) FROM cuda_call WHERE op_id = 9") >= 10);
    CHECK(query_int(trace, "SELECT count(*) FROM system_snapshot") >= 1);
    // The workload gets SIGTERM forwarded, or SIGINT from the terminal (none here): stop it.
    auto workload = query_int(trace,
                              "SELECT pid FROM process WHERE in_tree = 1 AND parent_id IS "
                              "NULL");
    kill(static_cast<pid_t>(workload), SIGKILL);
}
