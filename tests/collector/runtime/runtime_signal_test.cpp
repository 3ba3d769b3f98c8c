// SIGINT, SIGTERM and --duration stop a recording cleanly: everything flushed, the file closed,
// exit 0, and the command the collector started ended with it.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/collector/runtime/collector_process.hpp"
#include "tests/support/runtime_guard.hpp"
#include "tests/support/temp_dir.hpp"

using namespace causeway::testing;

namespace {

// True while `pid` exists and is not a zombie (a process ended but not yet reaped by its new
// parent counts as ended).
bool alive(pid_t pid) {
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("State:", 0) == 0) {
            return line.find('Z') == std::string::npos && line.find('X') == std::string::npos;
        }
    }
    return false;
}

}  // namespace

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
    // The command the collector started is ended with it, and reaped.
    auto workload = query_int(trace,
                              "SELECT pid FROM process WHERE in_tree = 1 AND parent_id IS "
                              "NULL");
    CHECK_FALSE(alive(static_cast<pid_t>(workload)));
}

TEST_CASE("the end of --duration ends the command it started: SIGTERM, then SIGKILL") {
    require_runtime_or_skip();
    TempDir dir;
    // One command that SIGTERM ends, one (a shell and its child) that ignores it.
    std::vector<std::string> obliging{"/bin/sleep", "600"};
    std::vector<std::string> stubborn{"/bin/sh", "-c", "trap '' TERM; /bin/sleep 600; :"};
    auto command = GENERATE_COPY(obliging, stubborn);
    INFO(command.back());
    std::string db = dir.file(command.size() == 2 ? "obliging.db" : "stubborn.db");
    std::vector<std::string> args{"--db",         db,  "--quiet", "--duration", "1",
                                  "--kill-after", "1", "--"};
    args.insert(args.end(), command.begin(), command.end());
    auto run = run_collector(args, dir.path());
    INFO(run.stderr_text);
    REQUIRE(run.exited_ok());
    auto trace = open_trace(db);
    auto processes = trace.db().prepare("SELECT pid FROM process WHERE in_tree = 1");
    REQUIRE(processes);
    int checked = 0;
    while (processes->step() == SQLITE_ROW) {
        CHECK_FALSE(alive(static_cast<pid_t>(processes->column_int64(0))));
        ++checked;
    }
    CHECK(checked == static_cast<int>(command.size() == 2 ? 1 : 2));
    // The shutdown is in the trace: the command's exit and what the collector did.
    CHECK(query_int(trace,
                    "SELECT count(*) FROM process WHERE parent_id IS NULL AND exit_ns IS "
                    "NOT NULL") == 1);
    CHECK(query_int(trace,
                    "SELECT count(*) FROM data_quality WHERE counter = "
                    "'command_ended_by_collector'") == 1);
}
