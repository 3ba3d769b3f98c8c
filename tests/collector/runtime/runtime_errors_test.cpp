// Clear errors for the mistakes people make: a pid that is gone, a DB that cannot be written, a
// program that does not exist. Each says what is wrong, and nothing is left half-done.
#include <sys/mount.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "tests/collector/runtime/collector_process.hpp"
#include "tests/support/runtime_guard.hpp"
#include "tests/support/temp_dir.hpp"

using namespace causeway::testing;

namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("without root or CAP_BPF + CAP_PERFMON the collector says what is missing") {
    require_runtime_or_skip();
    TempDir dir;
    // setpriv drops to nobody with no capabilities, as an unprivileged user would run it.
    auto run = run_collector({"--db", dir.file("x.db"), "--", "/bin/true"}, dir.path(),
                             {"/usr/bin/setpriv", "--reuid=65534", "--regid=65534",
                              "--clear-groups", "--inh-caps=-all", "--bounding-set=-all"});
    CHECK_FALSE(run.exited_ok());
    CHECK(contains(run.stderr_text, "not running as root and missing CAP_BPF and CAP_PERFMON"));
    CHECK(contains(run.stderr_text, "sudo"));
    CHECK_FALSE(std::filesystem::exists(dir.file("x.db")));
}

TEST_CASE("recording a pid that is not running is refused with the reason") {
    require_runtime_or_skip();
    TempDir dir;
    auto run = run_collector({"--db", dir.file("x.db"), "--pid", "999999999"}, dir.path());
    CHECK_FALSE(run.exited_ok());
    CHECK(contains(run.stderr_text, "pid 999999999 is not running"));
    CHECK_FALSE(std::filesystem::exists(dir.file("x.db")));
}

TEST_CASE("a DB path that cannot be written is refused with the reason") {
    require_runtime_or_skip();
    TempDir dir;
    auto run =
        run_collector({"--db", dir.file("no/such/folder/x.db"), "--", "/bin/true"}, dir.path());
    CHECK_FALSE(run.exited_ok());
    CHECK(contains(run.stderr_text, "cannot create trace DB"));
}

TEST_CASE("an existing DB is never overwritten") {
    require_runtime_or_skip();
    TempDir dir;
    std::string db = dir.file("taken.db");
    REQUIRE(run_collector({"--db", db, "--quiet", "--", "/bin/true"}, dir.path()).exited_ok());
    auto again = run_collector({"--db", db, "--", "/bin/true"}, dir.path());
    CHECK_FALSE(again.exited_ok());
    CHECK(contains(again.stderr_text, "already exists"));
}

TEST_CASE("a command that cannot be run is refused before anything is recorded") {
    require_runtime_or_skip();
    TempDir dir;
    for (std::string program : {"/no/such/program", "no-such-program-on-any-path"}) {
        std::string db = dir.file("norun.db");
        auto run = run_collector({"--db", db, "--", program}, dir.path());
        INFO(run.stderr_text);
        CHECK_FALSE(run.exited_ok());
        CHECK(contains(run.stderr_text, "cannot run " + program + ": No such file or directory"));
        // No trace whose verdict could blame the CUDA library.
        CHECK_FALSE(std::filesystem::exists(db));
    }
}

TEST_CASE("a command whose exec fails after the checks leaves a trace that says it never ran") {
    require_runtime_or_skip();
    TempDir dir;
    // Runnable by its mode, refused by execve: its interpreter does not exist.
    std::string script = dir.file("script");
    std::ofstream(script) << "#!/no/such/interpreter\n";
    std::filesystem::permissions(script, std::filesystem::perms::owner_all);
    std::string db = dir.file("norun.db");
    auto run = run_collector({"--db", db, "--", script}, dir.path());
    INFO(run.stderr_text);
    CHECK_FALSE(run.exited_ok());
    CHECK(contains(run.stderr_text, "cannot run " + script + ": No such file or directory"));
    auto trace = open_trace(db);
    CHECK(query_int(trace, "SELECT count(*) FROM session WHERE stop_ns IS NOT NULL") == 1);
    CHECK(query_int(trace,
                    "SELECT count(*) FROM data_quality WHERE counter = 'command_not_started' AND "
                    "severity = 'error' AND value = 1") == 1);
}

TEST_CASE("symbols a library does not export are info, not missing probes") {
    require_runtime_or_skip();
    TempDir dir;
    // The fake driver under a runtime's name: it exports none of the runtime's symbols.
    std::string runtime = dir.file("libcudart.so.13");
    std::filesystem::copy_file(std::string(FAKECUDA_DIR) + "/libcuda.so.1", runtime);
    std::string db = dir.file("minimal.db");
    auto run = run_collector(
        {"--db", db, "--quiet", "--cuda-lib", runtime, "--", CW_FAKE_WORKLOAD_BIN, "counts", "10"},
        dir.path());
    INFO(run.stderr_text);
    REQUIRE(run.exited_ok());
    CHECK_FALSE(contains(run.stderr_text, "cannot attach"));
    auto trace = open_trace(db);
    CHECK(query_int(trace,
                    "SELECT value FROM data_quality WHERE source = 'probes' AND counter = "
                    "'symbols_not_exported' AND severity = 'info'") >= 15);
    CHECK(query_int(trace,
                    "SELECT value FROM data_quality WHERE source = 'probes' AND counter = "
                    "'required_missing'") == 0);
}

TEST_CASE("options after -- are the command's own also when --cuda-lib and --pid come before") {
    require_runtime_or_skip();
    TempDir dir;
    // --cuda-lib and --pid are repeatable: each takes one value, so `--` still ends the
    // collector's options and `-c` reaches the shell.
    std::string runtime = std::string(FAKECUDA_DIR) + "/libcudart.so.13";
    auto run = run_collector({"--db", dir.file("x.db"), "--quiet", "--cuda-lib", runtime,
                              "--cuda-lib", runtime, "--", "/bin/sh", "-c", "exit 0"},
                             dir.path());
    INFO(run.stderr_text);
    CHECK(run.exited_ok());
    CHECK(std::filesystem::exists(dir.file("x.db")));
}

TEST_CASE("a PCIe link given to the collector is recorded and a malformed one refused") {
    require_runtime_or_skip();
    TempDir dir;
    auto run = run_collector({"--db", dir.file("link.db"), "--quiet", "--gpu-link", "gen5x16", "--",
                              "/bin/sh", "-c", "exit 0"},
                             dir.path());
    INFO(run.stderr_text);
    REQUIRE(run.exited_ok());
    auto trace = open_trace(dir.file("link.db"));
    CHECK(query_int(trace, "SELECT gpu_link_mts FROM session") == 32'000);
    CHECK(query_int(trace, "SELECT gpu_link_width FROM session") == 16);

    auto refused = run_collector({"--db", dir.file("bad.db"), "--quiet", "--gpu-link", "pcie4",
                                  "--", "/bin/sh", "-c", "exit 0"},
                                 dir.path());
    CHECK_FALSE(refused.exited_ok());
    CHECK(contains(refused.stderr_text, "--gpu-link: 'pcie4' is not a PCIe link"));
    CHECK_FALSE(std::filesystem::exists(dir.file("bad.db")));
}

TEST_CASE("a full disk stops the recording and leaves the command running to its end") {
    require_runtime_or_skip();
    TempDir dir;
    const std::string small = dir.file("small");
    std::filesystem::create_directory(small);
    // A 4 MiB file system: a flood of calls fills it after a batch or two is committed.
    REQUIRE(::mount("causeway-test", small.c_str(), "tmpfs", 0, "size=4m") == 0);
    struct Unmount {
        std::string path;
        ~Unmount() { ::umount2(path.c_str(), MNT_DETACH); }
    } unmount{small};
    const std::string db = small + "/full.db";
    auto run = run_collector(
        {"--db", db, "--quiet", "--", CW_FAKE_WORKLOAD_BIN, "flood", "1000000"}, dir.path());
    INFO(run.stderr_text);
    // The collector says why it stopped; the command was not ended by it, but ran to its end.
    CHECK_FALSE(run.exited_ok());
    CHECK(contains(run.stderr_text, "database or disk is full"));
    CHECK(contains(run.stderr_text, "the command goes on untraced"));
    CHECK(contains(run.stderr_text, "the command exited with status 0"));
    // What was committed before the disk filled is readable.
    auto trace = open_trace(db);
    CHECK(query_int(trace, "SELECT count(*) FROM cuda_call") > 1000);
    // Marked incomplete, with the reason and when it stopped.
    CHECK(query_int(
              trace,
              "SELECT count(*) FROM data_quality WHERE source = 'collector' AND counter = "
              "'storage_failed' AND value = 1 AND description LIKE '%disk is full: the recording "
              "stopped % s after it started; the command ran on untraced'") == 1);
}
