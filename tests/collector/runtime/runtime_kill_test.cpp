// f. kill -9 during recording leaves a DB that opens and holds what was committed, and no
// process of the command stopped at a dlopen.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>
#include <string>

#include "tests/collector/runtime/collector_process.hpp"
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

namespace {

// The one-letter state of `pid` from /proc ('R', 'S', 'T', 'Z', ...); 0 when it is gone.
char process_state(pid_t pid) {
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("State:", 0) == 0 && line.size() > 7) {
            return line[7];
        }
    }
    return 0;
}

std::string command_line(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/cmdline");
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string process_name(pid_t pid) {
    std::ifstream comm("/proc/" + std::to_string(pid) + "/comm");
    std::string name;
    std::getline(comm, name);
    return name;
}

// Polls `condition` every 20 ms until it holds; false after 30 s (a generous bound: every
// condition waited for here is a matter of milliseconds).
template <class Condition>
bool eventually(Condition condition) {
    for (int i = 0; i < 1500; ++i) {
        if (condition()) {
            return true;
        }
        usleep(20'000);
    }
    return false;
}

}  // namespace

TEST_CASE("a command stopped at a dlopen is continued when the collector dies") {
    require_runtime_or_skip();
    TempDir dir;
    std::string fifo = dir.file("go");
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    // A shell that waits for the test, then execs a program whose loader stops it at start.
    std::string db = dir.file("guarded.db");
    pid_t collector = spawn({collector_path(), "record", "--db", db, "--quiet", "--", "/bin/sh",
                             "-c", "read x < \"$0\"; exec \"$1\" \"$2\" 5", fifo,
                             CW_DLOPEN_LATE_BIN, std::string(FAKECUDA_DIR) + "/libcudart.so.13"});
    // The collector's child that is the shell, once it waits on the FIFO (its own start-up stop
    // already continued by the collector). Other children (ldconfig for discovery) come and go.
    pid_t workload = 0;
    REQUIRE(eventually([&] {
        std::ifstream children("/proc/" + std::to_string(collector) + "/task/" +
                               std::to_string(collector) + "/children");
        for (pid_t child = 0; children >> child;) {
            if (command_line(child).find(fifo) != std::string::npos &&
                process_name(child) == "sh" && process_state(child) == 'S') {
                workload = child;
            }
        }
        return workload > 0;
    }));
    // The collector can no longer continue anything; the workload stops at its next dlopen.
    kill(collector, SIGSTOP);
    int go = -1;
    REQUIRE(eventually([&] {  // ENXIO until the shell has the FIFO open for reading
        go = open(fifo.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        return go >= 0;
    }));
    REQUIRE(write(go, "go\n", 3) == 3);
    close(go);
    REQUIRE(eventually([&] { return process_state(workload) == 'T'; }));
    kill(collector, SIGKILL);
    wait_for(collector);
    // The guard continues it: it runs to its end (a zombie its new parent reaps, or gone).
    CHECK(eventually([&] {
        char state = process_state(workload);
        return state == 0 || state == 'Z';
    }));
    if (process_state(workload) != 0 && process_state(workload) != 'Z') {
        kill(workload, SIGKILL);  // the failure is reported; leave nothing behind
    }
}
