// Python frames on the real thing: CPython interpreters running scripts that call the fake CUDA
// runtime through ctypes, recorded with --stacks. The recorded stacks must name the scripts' own
// files, functions and lines (read from their marker comments).
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>

#include "tests/collector/runtime/collector_process.hpp"
#include "tests/collector/runtime/python_program.hpp"
#include "tests/support/runtime_guard.hpp"
#include "tests/support/temp_dir.hpp"

using namespace causeway::testing;

namespace {

const std::string kCallsScript = python_workload("ctypes_calls.py");

// Debian's python3 (required), and the other CPython builds of this machine where present.
std::vector<std::string> interpreters() {
    std::vector<std::string> found = {kDebianPython};
    for (const char* version : {"3.11.7", "3.12.1", "3.13.0"}) {
        std::string path = std::string("/root/.pyenv/versions/") + version + "/bin/python3";
        if (std::filesystem::exists(path)) {
            found.push_back(path);
        } else {
            WARN("not on this machine, not tested: " << path);
        }
    }
    return found;
}

std::vector<std::string> record_command(const std::string& db,
                                        const std::vector<std::string>& command) {
    std::vector<std::string> argv = {collector_path(), "record",   "--db", db,
                                     "--quiet",        "--stacks", "--"};
    argv.insert(argv.end(), command.begin(), command.end());
    return argv;
}

bool exited_ok(int status) {
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// CUDA calls of `op` whose Python frame at `depth` is `function` at `line` of `script`.
std::string calls_at(int op, int depth, const std::string& function, int line,
                     const std::string& script) {
    return "SELECT count(*) FROM cuda_call c JOIN stack_python_frame f ON f.stack_id = "
           "c.stack_id AND f.depth = " +
           std::to_string(depth) + " WHERE c.op_id = " + std::to_string(op) +
           " AND f.function = '" + function + "' AND f.line = " + std::to_string(line) +
           " AND f.file = '" + script + "'";
}

}  // namespace

TEST_CASE("the stack of a CUDA call made through ctypes names the Python file and line") {
    require_runtime_or_skip();
    REQUIRE(std::filesystem::exists(kDebianPython));
    setenv("CAUSEWAY_FAKECUDA_DIR", FAKECUDA_DIR, 1);
    const int sync = marker_line(kCallsScript, "sync"), leaf = marker_line(kCallsScript, "leaf");
    const int nested = marker_line(kCallsScript, "nested"),
              copy = marker_line(kCallsScript, "copy");
    for (const auto& python : interpreters()) {
        INFO("interpreter " << python);
        TempDir dir;
        std::string db = dir.file("python.db");
        PipedProcess collector(record_command(db, {python, kCallsScript, "serve", "--depth", "3"}));
        // Each round makes a sync call, then a copy: once a copy is named, so is a sync.
        REQUIRE(wait_for_trace(db, calls_at(6, 0, "copy_once", copy, kCallsScript)));
        REQUIRE(exited_ok(collector.finish()));
        auto trace = open_trace(db);

        std::int64_t syncs = query_int(trace, "SELECT count(*) FROM cuda_call WHERE op_id = 9");
        REQUIRE(syncs > 0);
        // Every call, innermost first: sync_once at its line, nested at the call of sync_once,
        // then nested twice at its recursive call.
        CHECK(query_int(trace, calls_at(9, 0, "sync_once", sync, kCallsScript)) == syncs);
        CHECK(query_int(trace, calls_at(9, 1, "nested", leaf, kCallsScript)) == syncs);
        CHECK(query_int(trace, calls_at(9, 2, "nested", nested, kCallsScript)) == syncs);
        CHECK(query_int(trace, calls_at(9, 3, "nested", nested, kCallsScript)) == syncs);
        // The same stacks hold the native frames: the uprobe's function at depth 0.
        CHECK(query_int(trace,
                        "SELECT count(*) FROM cuda_call c JOIN stack_frame f ON f.stack_id = "
                        "c.stack_id AND f.depth = 0 WHERE c.op_id = 9 AND f.symbol = "
                        "'cudaStreamSynchronize'") == syncs);
        CHECK(query_int(trace,
                        "SELECT count(*) FROM stack WHERE python_truncated = 0 AND id IN "
                        "(SELECT stack_id FROM cuda_call WHERE op_id = 9)") >= 1);
        CHECK(query_int(trace,
                        "SELECT value FROM data_quality WHERE source = 'python' AND counter = "
                        "'unreadable_interpreters'") == 0);
        CHECK(query_int(trace,
                        "SELECT value FROM data_quality WHERE source = 'python' AND "
                        "counter = 'walks'") >= syncs);
        // The thread that calls CUDA is sampled when it leaves its CPU (between rounds it waits).
        CHECK(query_int(trace,
                        "SELECT count(*) FROM switch_out_stack s WHERE s.role = 0 AND "
                        "s.thread_id IN (SELECT thread_id FROM cuda_call) AND EXISTS (SELECT 1 "
                        "FROM stack_python_frame f WHERE f.stack_id = s.stack_id AND f.function "
                        "= 'main')") >= 1);
        CHECK(query_int(trace, "SELECT python_sample_gap_ns FROM session") == 1'000'000);
    }
}

TEST_CASE("a Python stack deeper than the frame limit keeps its innermost 32 frames") {
    require_runtime_or_skip();
    setenv("CAUSEWAY_FAKECUDA_DIR", FAKECUDA_DIR, 1);
    TempDir dir;
    std::string db = dir.file("deep.db");
    PipedProcess collector(
        record_command(db, {kDebianPython, kCallsScript, "serve", "--depth", "40"}));
    const int sync = marker_line(kCallsScript, "sync");
    REQUIRE(wait_for_trace(db, calls_at(9, 0, "sync_once", sync, kCallsScript)));
    REQUIRE(exited_ok(collector.finish()));
    auto trace = open_trace(db);
    CHECK(query_int(trace,
                    "SELECT count(*) FROM stack s WHERE s.python_truncated = 1 AND s.id IN "
                    "(SELECT stack_id FROM cuda_call WHERE op_id = 9) AND (SELECT count(*) FROM "
                    "stack_python_frame f WHERE f.stack_id = s.id) = 32") >= 1);
    CHECK(query_int(trace,
                    "SELECT value FROM data_quality WHERE source = 'python' AND counter = "
                    "'truncated'") >= 1);
}

TEST_CASE("attaching with --pid walks the Python frames of a process already running") {
    require_runtime_or_skip();
    setenv("CAUSEWAY_FAKECUDA_DIR", FAKECUDA_DIR, 1);
    TempDir dir;
    PipedProcess python({kDebianPython, kCallsScript, "serve"});
    REQUIRE(python.read_line() == "ready");  // running, its runtime loaded, before recording
    std::string db = dir.file("attached.db");
    std::string pid = std::to_string(python.pid());
    PipedProcess collector(
        {collector_path(), "record", "--db", db, "--quiet", "--stacks", "--pid", pid});
    const int sync = marker_line(kCallsScript, "sync"), leaf = marker_line(kCallsScript, "leaf");
    REQUIRE(wait_for_trace(db, calls_at(9, 1, "nested", leaf, kCallsScript)));
    kill(collector.pid(), SIGINT);
    REQUIRE(exited_ok(collector.finish()));
    REQUIRE(exited_ok(python.finish()));
    auto trace = open_trace(db);
    CHECK(query_int(trace, "SELECT count(*) FROM process WHERE pid = " + pid +
                               " AND in_tree = 1 AND start_ns IS NULL") == 1);
    std::int64_t syncs = query_int(trace, "SELECT count(*) FROM cuda_call WHERE op_id = 9");
    CHECK(syncs > 0);
    CHECK(query_int(trace, calls_at(9, 0, "sync_once", sync, kCallsScript)) == syncs);
}

TEST_CASE("a DataLoader worker that preempts the trainer is sampled in its __getitem__") {
    require_runtime_or_skip();
    setenv("CAUSEWAY_FAKECUDA_DIR", FAKECUDA_DIR, 1);
    const std::string script = python_workload("dataloader_lines.py");
    const int getitem = marker_line(script, "getitem");
    const int train_sync = marker_line(script, "train-sync");
    TempDir dir;
    std::string db = dir.file("dataloader.db");
    PipedProcess collector(record_command(db, {kDebianPython, script}));
    // A worker left a CPU it had taken from the trainer while in __getitem__, and the trainer's
    // preempted interval that it caused is stored (the two share the switch-out time).
    const std::string competitor_in_getitem =
        "SELECT count(*) FROM switch_out_stack s JOIN offcpu o ON o.thread_id = s.gpu_thread_id "
        "AND o.ts_ns = s.gpu_switch_out_ns AND o.reason = 0 WHERE s.role = 1 AND EXISTS (SELECT 1 "
        "FROM stack_python_frame f WHERE f.stack_id = s.stack_id AND f.function = "
        "'PythonWorkDataset.__getitem__' AND f.line = " +
        std::to_string(getitem) + " AND f.file = '" + script + "')";
    REQUIRE(wait_for_trace(db, competitor_in_getitem));
    REQUIRE(exited_ok(collector.finish()));
    auto trace = open_trace(db);
    CHECK(query_int(trace, competitor_in_getitem) >= 1);
    // The competitor is a worker: a process forked by the trainer, whose thread made the CUDA
    // calls; the trainer's calls are named at their line.
    CHECK(query_int(trace,
                    "SELECT count(*) FROM switch_out_stack s JOIN thread t ON t.id = s.thread_id "
                    "JOIN process w ON w.id = t.process_id JOIN thread g ON g.id = "
                    "s.gpu_thread_id WHERE s.role = 1 AND w.parent_id = g.process_id AND "
                    "s.gpu_thread_id IN (SELECT thread_id FROM cuda_call)") >= 1);
    CHECK(query_int(trace, calls_at(9, 0, "main", train_sync, script)) ==
          query_int(trace, "SELECT count(*) FROM cuda_call WHERE op_id = 9"));
}

TEST_CASE("an interpreter that cannot be read falls back to native frames and says why") {
    require_runtime_or_skip();
    const std::string python310 = "/root/.pyenv/versions/3.10.13/bin/python3";
    if (!std::filesystem::exists(python310)) {
        WARN("no CPython 3.10 on this machine, not tested: " << python310);
        return;
    }
    setenv("CAUSEWAY_FAKECUDA_DIR", FAKECUDA_DIR, 1);
    TempDir dir;
    std::string db = dir.file("python310.db");
    PipedProcess collector(record_command(db, {python310, kCallsScript, "serve"}));
    REQUIRE(wait_for_trace(db,
                           "SELECT count(*) FROM cuda_call c JOIN stack_frame f ON "
                           "f.stack_id = c.stack_id WHERE c.op_id = 9"));
    REQUIRE(exited_ok(collector.finish()));
    auto trace = open_trace(db);
    CHECK(query_int(trace, "SELECT count(*) FROM cuda_call WHERE op_id = 9 AND stack_id IS NULL") ==
          0);
    CHECK(query_int(trace, "SELECT count(*) FROM stack_python_frame") == 0);
    CHECK(query_int(trace, "SELECT count(*) FROM stack WHERE python_truncated IS NOT NULL") == 0);
    CHECK(query_int(trace,
                    "SELECT count(*) FROM data_quality WHERE source = 'python' AND counter = "
                    "'unreadable_interpreters' AND value = 1 AND severity = 'error' AND "
                    "description LIKE '%libpython3.10%before 3.11%'") == 1);
}
