// --pid: attaching to a process that is already running (its threads predate the recording).
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include <catch2/catch.hpp>

#include "tests/collector/runtime/collector_process.hpp"
#include "tests/support/runtime_guard.hpp"
#include "tests/support/temp_dir.hpp"

using namespace causeway::testing;

namespace {

// True once process `pid` has mapped the fake runtime and runs more than one thread (its device
// thread): what the test needs to have predated the recording, waited for rather than guessed.
bool runtime_loaded(pid_t pid) {
    const std::string proc = "/proc/" + std::to_string(pid);
    std::ifstream maps(proc + "/maps");
    const std::string text((std::istreambuf_iterator<char>(maps)),
                           std::istreambuf_iterator<char>());
    std::error_code error;
    auto tasks = std::filesystem::directory_iterator(proc + "/task", error);
    return !error && text.find("fakecuda/libcudart.so.13") != std::string::npos &&
           std::distance(tasks, std::filesystem::directory_iterator{}) >= 2;
}

}  // namespace

TEST_CASE("a running process is traced with --pid until --duration") {
    require_runtime_or_skip();
    TempDir dir;
    // About 500 s of work, killed once the recording ends: the workload must outlive a collector
    // that starts slowly on a loaded machine (5 s of work once failed this test in a full suite
    // run while three builds shared the 2 CPUs).
    pid_t workload = spawn({CW_FAKE_WORKLOAD_BIN, "counts", "250000"});
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!runtime_loaded(workload) && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    REQUIRE(runtime_loaded(workload));
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
