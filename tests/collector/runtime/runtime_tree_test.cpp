// c. A forked child and an extra thread are traced; an unrelated process is not.
#include <sys/wait.h>

#include <catch2/catch.hpp>

#include "tests/collector/runtime/collector_process.hpp"
#include "tests/support/runtime_guard.hpp"
#include "tests/support/temp_dir.hpp"

using namespace causeway::testing;

TEST_CASE("the process tree is followed in the kernel: children and threads, nothing else") {
    require_runtime_or_skip();
    TempDir dir;
    std::string db = dir.file("tree.db");
    // The same library, called by a process outside the tree at the same time.
    pid_t unrelated = spawn({CW_FAKE_WORKLOAD_BIN, "flood", "3000"});
    auto run = run_collector({"--db", db, "--quiet", "--", CW_FAKE_WORKLOAD_BIN, "tree", "25"},
                             dir.path());
    int unrelated_status = wait_for(unrelated);
    INFO(run.stderr_text);
    REQUIRE(run.exited_ok());
    REQUIRE(WIFEXITED(unrelated_status));
    auto trace = open_trace(db);

    // The worker thread's calls are on its own thread row, renamed cw_worker.
    CHECK(query_int(trace,
                    "SELECT count(*) FROM cuda_call c JOIN thread t ON t.id = c.thread_id "
                    "WHERE t.comm = 'cw_worker' AND c.op_id = 10") == 25);
    CHECK(query_int(trace, "SELECT count(*) FROM thread_rename WHERE new_comm = 'cw_worker'") == 1);
    CHECK(query_int(trace,
                    "SELECT count(*) FROM thread_sched_total s JOIN thread t ON "
                    "t.id = s.thread_id WHERE t.comm = 'cw_worker'") == 1);

    // The forked child: in the tree, parent linked, renamed, exit status 7 recorded.
    CHECK(query_int(trace,
                    "SELECT count(*) FROM process c JOIN process p ON p.id = c.parent_id "
                    "JOIN thread t ON t.process_id = c.id WHERE c.in_tree = 1 AND "
                    "t.comm = 'cw_child' AND c.start_ns IS NOT NULL") == 1);
    CHECK(query_int(trace,
                    "SELECT exit_code FROM process c JOIN thread t ON t.process_id = c.id "
                    "WHERE t.comm = 'cw_child'") == (7 << 8));

    // The unrelated process made thousands of calls on the same library: none recorded.
    std::string unrelated_pid = std::to_string(unrelated);
    CHECK(query_int(trace, "SELECT count(*) FROM process WHERE in_tree = 1 AND pid = " +
                               unrelated_pid) == 0);
    CHECK(query_int(trace,
                    "SELECT count(*) FROM cuda_call c JOIN thread t ON t.id = c.thread_id "
                    "JOIN process p ON p.id = t.process_id WHERE p.pid = " +
                        unrelated_pid) == 0);
    CHECK(query_int(trace, "SELECT count(*) FROM cuda_call") ==
          query_int(trace,
                    "SELECT count(*) FROM cuda_call c JOIN thread t ON t.id = c.thread_id "
                    "JOIN process p ON p.id = t.process_id WHERE p.in_tree = 1"));
}
