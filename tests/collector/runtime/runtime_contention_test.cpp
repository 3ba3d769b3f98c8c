// d. CPU hogs inside and outside the tree compete with the traced thread on one CPU: its
// preempted intervals name both.
#include <signal.h>

#include <catch2/catch.hpp>

#include "tests/collector/runtime/collector_process.hpp"
#include "tests/support/runtime_guard.hpp"
#include "tests/support/temp_dir.hpp"

using namespace causeway::testing;

TEST_CASE("preempted intervals of the traced thread name the competitors inside and outside") {
    require_runtime_or_skip();
    TempDir dir;
    std::string db = dir.file("contend.db");
    pid_t outside = spawn({CW_HOG_BIN, "cw_hog_outside", "0"});
    auto run = run_collector(
        {"--db", db, "--quiet", "--", CW_FAKE_WORKLOAD_BIN, "contend", "2", "0"}, dir.path());
    kill(outside, SIGKILL);
    wait_for(outside);
    INFO(run.stderr_text);
    REQUIRE(run.exited_ok());
    auto trace = open_trace(db);

    // The traced main thread: tid == pid of the root process.
    std::string main_thread =
        "(SELECT t.id FROM thread t JOIN process p ON p.id = t.process_id "
        "WHERE p.parent_id IS NULL AND p.in_tree = 1 AND t.tid = p.pid)";
    auto preempted_by = [&](const std::string& comm) {
        return query_int(trace,
                         "SELECT count(*) FROM offcpu o JOIN thread n ON n.id = "
                         "o.next_thread_id WHERE o.thread_id = " +
                             main_thread + " AND o.reason = 0 AND n.comm = '" + comm + "'");
    };
    CHECK(preempted_by("cw_hog_inside") > 0);
    CHECK(preempted_by("cw_hog_outside") > 0);
    CHECK(query_int(trace, "SELECT count(*) FROM offcpu WHERE thread_id = " + main_thread +
                               " AND reason = 0 AND runq_wait_ns = dur_ns AND cpu = 0") > 0);
    // Competitors are minted: the outside hog as a process outside the tree.
    CHECK(query_int(trace,
                    "SELECT count(*) FROM process p JOIN thread t ON t.process_id = p.id "
                    "WHERE t.comm = 'cw_hog_outside' AND p.in_tree = 0") == 1);
    CHECK(query_int(trace,
                    "SELECT count(*) FROM process p JOIN thread t ON t.process_id = p.id "
                    "WHERE t.comm = 'cw_hog_inside' AND p.in_tree = 1") == 1);
    // Exact totals agree: preempted time is there and at least the stored intervals' sum.
    CHECK(query_int(trace, "SELECT preempted_ns FROM thread_sched_total WHERE thread_id = " +
                               main_thread) >=
          query_int(trace, "SELECT sum(dur_ns) FROM offcpu WHERE reason = 0 AND thread_id = " +
                               main_thread));
    CHECK(query_int(trace,
                    "SELECT involuntary_switches FROM thread_sched_total WHERE "
                    "thread_id = " +
                        main_thread) > 0);
}
