// Minting process and thread ids from lifecycle events into a real trace DB.
#include "collector/events/thread_registry.hpp"

#include <catch2/catch.hpp>
#include <cstring>

#include "tests/support/temp_dir.hpp"
#include "tracedb/reader.hpp"

using namespace causeway;
using collector::ThreadRegistry;

namespace {

cw_life_event life(std::uint32_t kind, std::uint32_t tid, std::uint32_t tgid, const char* comm,
                   std::uint64_t ts_ns) {
    cw_life_event e{};
    e.kind = kind;
    e.tid = tid;
    e.tgid = tgid;
    e.ts_ns = ts_ns;
    std::strncpy(e.comm, comm, sizeof(e.comm) - 1);
    return e;
}

std::int64_t count(const tracedb::TraceReader& trace, const char* sql) {
    return trace.db().query_int64(sql).value();
}

}  // namespace

TEST_CASE("forks, threads, renames and exits become rows, pid reuse gets a new process") {
    testing::TempDir dir;
    std::string path = dir.file("registry.db");
    tracedb::SessionRecord session;
    session.start_mono_ns = 1000;
    auto writer = tracedb::TraceWriter::create(path, session);
    REQUIRE(writer);
    // A fixture /proc with nothing in it: names come from the events.
    ThreadRegistry registry(*writer, 1000, dir.file("proc"));

    auto fork = life(CW_LIFE_FORK, 200, 200, "python3", 2000);
    fork.ppid = 100;
    REQUIRE(registry.on_life_event(fork));
    REQUIRE(registry.on_life_event(life(CW_LIFE_THREAD, 201, 200, "python3", 3000)));
    REQUIRE(registry.on_life_event(life(CW_LIFE_RENAME, 200, 200, "pt_data_worker", 4000)));
    auto exit = life(CW_LIFE_EXIT, 201, 200, "python3", 5000);
    exit.has_totals = 1;
    exit.totals.involuntary_switches = 4;
    exit.totals.preempted_ns = 900;
    REQUIRE(registry.on_life_event(exit));
    auto group_exit = life(CW_LIFE_EXIT, 200, 200, "pt_data_worker", 6000);
    group_exit.group_dead = 1;
    group_exit.exit_code = 256;
    REQUIRE(registry.on_life_event(group_exit));
    CHECK(registry.live_traced_processes() == 0);
    // The pid comes back as a new process.
    auto again = life(CW_LIFE_FORK, 200, 200, "bash", 7000);
    REQUIRE(registry.on_life_event(again));
    CHECK(registry.live_traced_processes() == 1);
    // A competitor outside the tree, first seen in an off-CPU record.
    REQUIRE(registry.thread_id(900, 900, false, "kworker/0:1"));
    REQUIRE(writer->finish(8000));

    auto trace = tracedb::TraceReader::open(path);
    REQUIRE(trace);
    CHECK(count(*trace, "SELECT count(*) FROM process WHERE pid = 200") == 2);
    CHECK(count(*trace, "SELECT exit_code FROM process WHERE pid = 200 AND exit_ns = 5000") == 256);
    CHECK(count(*trace, "SELECT start_ns FROM thread WHERE tid = 201") == 2000);
    CHECK(count(*trace, "SELECT exit_ns FROM thread WHERE tid = 201") == 4000);
    CHECK(count(*trace,
                "SELECT count(*) FROM thread_rename WHERE old_comm = 'python3' AND "
                "new_comm = 'pt_data_worker' AND ts_ns = 3000") == 1);
    CHECK(count(*trace,
                "SELECT preempted_ns FROM thread_sched_total s JOIN thread t ON "
                "t.id = s.thread_id WHERE t.tid = 201") == 900);
    CHECK(count(*trace, "SELECT in_tree FROM process WHERE pid = 900") == 0);
    CHECK(count(*trace, "SELECT count(*) FROM thread WHERE comm = 'kworker/0:1'") == 1);
    CHECK(registry.threads_seen_late() == 0);  // the competitor is not a traced thread
}
