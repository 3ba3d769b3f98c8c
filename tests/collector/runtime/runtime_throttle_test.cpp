// A thread in a cgroup with a CPU quota spins on one CPU beside a hog from outside the tree. Its
// switch-outs when the quota ran out are recorded as throttled (offcpu.reason 2), apart from the
// ones where the hog took its CPU (reason 0), although the hog usually got the CPU then too. And
// the CPUs a traced process may use (a cpuset's, an affinity's) are sampled with its group.
#include <signal.h>

#include <catch2/catch.hpp>

#include "tests/collector/runtime/collector_process.hpp"
#include "tests/support/runtime_guard.hpp"
#include "tests/support/temp_dir.hpp"

using namespace causeway::testing;

TEST_CASE("a thread stopped by its cgroup's CPU quota is recorded as throttled, not preempted") {
    require_runtime_or_skip();
    TempDir dir;
    std::string db = dir.file("throttled.db");
    pid_t outside = spawn({CW_HOG_BIN, "cw_bystander", "0"});
    // 0.2 CPUs for 1.5 s: at most 0.3 s on the CPU, the rest preempted by the hog or throttled.
    auto run = run_collector({"--db", db, "--quiet", "--", CW_THROTTLED_BIN, "0", "0.2", "1.5"},
                             dir.path());
    kill(outside, SIGKILL);
    wait_for(outside);
    INFO(run.stderr_text);
    REQUIRE(run.exited_ok());
    auto trace = open_trace(db);

    const std::string spinner =
        "(SELECT t.id FROM thread t JOIN process p ON p.id = t.process_id "
        "WHERE p.parent_id IS NULL AND p.in_tree = 1 AND t.tid = p.pid)";
    auto offcpu_ns = [&](int reason) {
        return query_int(trace, "SELECT coalesce(sum(dur_ns), 0) FROM offcpu WHERE thread_id = " +
                                    spinner + " AND reason = " + std::to_string(reason));
    };
    // The quota keeps it off its CPU for at least 0.8 of the 1.5 s; the hog's share of the
    // remaining time is the scheduler's, so only a third of the run is asked of the throttling.
    CHECK(offcpu_ns(2) > 500'000'000);
    CHECK(query_int(trace, "SELECT count(*) FROM offcpu WHERE thread_id = " + spinner +
                               " AND reason = 2 AND runq_wait_ns = dur_ns") > 0);
    // Where the hog took the CPU while the quota lasted, it is still the competitor.
    CHECK(query_int(trace,
                    "SELECT count(*) FROM offcpu o JOIN thread n ON n.id = o.next_thread_id "
                    "WHERE o.thread_id = " +
                        spinner + " AND o.reason = 0 AND n.comm = 'cw_bystander'") > 0);
    // The exact totals count it as runnable: at least the stored intervals of both kinds.
    CHECK(query_int(trace, "SELECT preempted_ns FROM thread_sched_total WHERE thread_id = " +
                               spinner) >= offcpu_ns(0) + offcpu_ns(2));
}

TEST_CASE("the CPUs a traced process may run on are sampled with its cgroup") {
    require_runtime_or_skip();
    TempDir dir;
    std::string db = dir.file("pinned.db");
    // taskset pins itself to CPU 0 and execs sleep: the traced process keeps that affinity (a
    // cpuset.cpus of one CPU narrows it the same way).
    auto run = run_collector({"--db", db, "--quiet", "--", "taskset", "-c", "0", "sleep", "1.5"},
                             dir.path());
    INFO(run.stderr_text);
    REQUIRE(run.exited_ok());
    auto trace = open_trace(db);
    const std::string in_tree =
        "FROM cgroup_sample s JOIN process p ON p.id = s.process_id WHERE p.in_tree = 1";
    CHECK(query_int(trace, "SELECT count(*) " + in_tree + " AND s.cpus_allowed = 1") > 0);
    // taskset may run on every CPU until it pins itself, and a sample taken in those first
    // microseconds says so (CI saw one); none taken after one CPU was seen.
    CHECK(query_int(trace, "SELECT count(*) " + in_tree +
                               " AND s.cpus_allowed > 1 AND s.ts_ns > (SELECT min(s.ts_ns) " +
                               in_tree + " AND s.cpus_allowed = 1)") == 0);
}
