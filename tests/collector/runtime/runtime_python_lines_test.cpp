// Python lines as a user reads them, on the real thing: Debian's python3 recorded with --stacks,
// then `causeway explain` and the MCP tool get_stacks (through `causeway mcp`) on the trace. The
// lines are read from the workloads' marker comments, never written down twice.
#include <signal.h>
#include <sys/wait.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "tests/collector/runtime/collector_process.hpp"
#include "tests/collector/runtime/python_program.hpp"
#include "tests/support/runtime_guard.hpp"
#include "tests/support/temp_dir.hpp"

using namespace causeway::testing;
using nlohmann::json;

namespace {

const std::string kCallsScript = python_workload("ctypes_calls.py");
// Calls a trace needs before it gets a verdict (analysis: kMinCallsForVerdict is 20).
constexpr int kCallsForVerdict = 30;

std::string explain_text(const std::string& db) {
    return output_of(shell_quoted(CAUSEWAY_CLI_BIN) + " explain --db " + shell_quoted(db));
}

// The result of one tools/call of `causeway mcp` on stdio, after the initialize handshake.
json call_tool(const std::string& db, const std::string& tool, const json& arguments) {
    const json messages[] = {
        {{"jsonrpc", "2.0"},
         {"id", 1},
         {"method", "initialize"},
         {"params",
          {{"protocolVersion", "2025-06-18"},
           {"capabilities", json::object()},
           {"clientInfo", {{"name", "runtime-test"}, {"version", "1"}}}}}},
        {{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}},
        {{"jsonrpc", "2.0"},
         {"id", 2},
         {"method", "tools/call"},
         {"params", {{"name", tool}, {"arguments", arguments}}}},
    };
    std::string input;
    for (const auto& message : messages) {
        input += message.dump() + "\n";
    }
    std::string out = output_of("printf '%s' " + shell_quoted(input) + " | " +
                                shell_quoted(CAUSEWAY_CLI_BIN) + " mcp --db " + shell_quoted(db));
    std::size_t start = 0;
    for (std::size_t end; (end = out.find('\n', start)) != std::string::npos; start = end + 1) {
        json message = json::parse(out.substr(start, end - start));
        if (message.value("id", json()) == 2) {
            INFO(message.dump(2));
            REQUIRE_FALSE(message["result"].value("isError", false));
            return message["result"];
        }
    }
    FAIL("no answer to tools/call in:\n" << out);
    return {};
}

std::string base_name(const std::string& path) {
    return path.substr(path.rfind('/') + 1);
}

// get_stacks of the sync calls: the top stack is led by sync_once at its line in the script,
// and its merged frames go from the native CUDA call to that Python frame.
void check_sync_stack(const std::string& db) {
    const int sync = marker_line(kCallsScript, "sync");
    json result =
        call_tool(db, "get_stacks", {{"op", "cudaStreamSynchronize"}, {"limit", 1}, {"depth", 64}});
    const json& stacks = result["structuredContent"]["stacks"];
    INFO(result.dump(2));
    REQUIRE(stacks.size() == 1);
    const json& lead = stacks[0]["user_line"];
    CHECK(lead["file"] == kCallsScript);
    CHECK(lead["line"] == sync);
    CHECK(lead["function"] == "sync_once");
    const json& merged = stacks[0]["merged_frames"];
    REQUIRE_FALSE(merged.empty());
    CHECK(merged[0]["kind"] == "native");
    CHECK(merged[0]["symbol"] == "cudaStreamSynchronize");
    auto first_python = std::find_if(merged.begin(), merged.end(),
                                     [](const json& frame) { return frame["kind"] == "python"; });
    REQUIRE(first_python != merged.end());
    CHECK((*first_python)["function"] == "sync_once");
    CHECK((*first_python)["line"] == sync);
    // Python frames come after every native frame shown (native below the loop are hidden).
    CHECK(std::all_of(first_python, merged.end(),
                      [](const json& frame) { return frame["kind"] == "python"; }));
    const std::string text = result["content"][0]["text"];
    CHECK(text.find("at " + base_name(kCallsScript) + ":" + std::to_string(sync) +
                    " in sync_once") != std::string::npos);
}

std::string sync_calls_at_least(int count) {
    return "SELECT count(*) >= " + std::to_string(count) + " FROM cuda_call WHERE op_id = 9";
}

}  // namespace

TEST_CASE("explain and get_stacks name the script line whose ctypes call waits for the device") {
    require_runtime_or_skip();
    setenv("CAUSEWAY_FAKECUDA_DIR", FAKECUDA_DIR, 1);
    TempDir dir;
    std::string db = dir.file("lines.db");
    // Each round queues 20 ms of device work that the sync call waits for: the sync line is
    // where the loop spends its time, whatever else the machine runs.
    PipedProcess collector({collector_path(), "record", "--db", db, "--quiet", "--stacks", "--",
                            kDebianPython, kCallsScript, "serve", "--device-ms", "20"});
    REQUIRE(wait_for_trace(db, sync_calls_at_least(kCallsForVerdict)));
    REQUIRE(collector.finish() == 0);

    check_sync_stack(db);
    const int sync = marker_line(kCallsScript, "sync");
    // The loop's time is in the sync calls: whichever chain claims it (the device's, or a
    // process that took the CPU while the fake runtime's sync was runnable, as on a loaded
    // machine), it names the sync line.
    json diagnosis = explain_json(db);
    INFO(diagnosis.dump(2));
    auto at_sync = std::find_if(diagnosis["chains"].begin(), diagnosis["chains"].end(),
                                [&](const json& chain) {
                                    return chain.contains("gpu_thread_line") &&
                                           chain["gpu_thread_line"]["file"] == kCallsScript &&
                                           chain["gpu_thread_line"]["line"] == sync &&
                                           chain["gpu_thread_line"]["function"] == "sync_once";
                                });
    CHECK(at_sync != diagnosis["chains"].end());
    CHECK(explain_text(db).find("Code:       waits at " + base_name(kCallsScript) + ":" +
                                std::to_string(sync) + " in sync_once") != std::string::npos);
}

TEST_CASE("get_stacks names the script line of a process recorded with --pid") {
    require_runtime_or_skip();
    setenv("CAUSEWAY_FAKECUDA_DIR", FAKECUDA_DIR, 1);
    TempDir dir;
    PipedProcess python({kDebianPython, kCallsScript, "serve"});
    REQUIRE(python.read_line() == "ready");  // running before recording starts
    std::string db = dir.file("attached.db");
    PipedProcess collector({collector_path(), "record", "--db", db, "--quiet", "--stacks", "--pid",
                            std::to_string(python.pid())});
    REQUIRE(wait_for_trace(db, sync_calls_at_least(1)));
    kill(collector.pid(), SIGINT);
    REQUIRE(collector.finish() == 0);
    REQUIRE(python.finish() == 0);
    check_sync_stack(db);
}

TEST_CASE("explain names a DataLoader worker's __getitem__ line as where the trainer's CPU went") {
    require_runtime_or_skip();
    setenv("CAUSEWAY_FAKECUDA_DIR", FAKECUDA_DIR, 1);
    const std::string script = python_workload("dataloader_lines.py");
    const int getitem = marker_line(script, "getitem");
    TempDir dir;
    std::string db = dir.file("dataloader.db");
    PipedProcess collector({collector_path(), "record", "--db", db, "--quiet", "--stacks", "--",
                            kDebianPython, script});
    // A worker gave up, in __getitem__, a CPU it had taken from the trainer, and the trainer
    // made enough calls for a verdict.
    REQUIRE(wait_for_trace(db, sync_calls_at_least(kCallsForVerdict)));
    REQUIRE(wait_for_trace(
        db,
        "SELECT count(*) FROM switch_out_stack s JOIN offcpu o ON o.thread_id = s.gpu_thread_id "
        "AND o.ts_ns = s.gpu_switch_out_ns AND o.reason = 0 WHERE s.role = 1 AND EXISTS (SELECT 1 "
        "FROM stack_python_frame f WHERE f.stack_id = s.stack_id AND f.line = " +
            std::to_string(getitem) + " AND f.file = '" + script + "')"));
    REQUIRE(collector.finish() == 0);

    json diagnosis = explain_json(db);
    INFO(diagnosis.dump(2));
    auto workers =
        std::find_if(diagnosis["chains"].begin(), diagnosis["chains"].end(), [](const json& chain) {
            return chain["actor"]["kind"] == "dataloader_workers" && chain.contains("actor_line");
        });
    REQUIRE(workers != diagnosis["chains"].end());
    const json& line = (*workers)["actor_line"];
    CHECK(line["file"] == script);
    CHECK(line["line"] == getitem);
    CHECK(line["function"] == "PythonWorkDataset.__getitem__");
    CHECK(line["library"] == false);
    if (workers->contains("gpu_thread_line")) {
        CHECK((*workers)["gpu_thread_line"]["file"] == script);  // the trainer's own loop
    }
    CHECK(explain_text(db).find("workers spend CPU at " + base_name(script) + ":" +
                                std::to_string(getitem) + " in PythonWorkDataset.__getitem__") !=
          std::string::npos);
}
