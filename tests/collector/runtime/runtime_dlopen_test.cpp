// g. A runtime dlopen'ed late from a path nobody predicted: the calls made right after the load
// are recorded.
#include <catch2/catch.hpp>
#include <filesystem>

#include "tests/collector/runtime/collector_process.hpp"
#include "tests/support/runtime_guard.hpp"
#include "tests/support/temp_dir.hpp"

using namespace causeway::testing;
namespace fs = std::filesystem;

TEST_CASE("a CUDA runtime loaded late from an odd path is attached before its first call") {
    require_runtime_or_skip();
    TempDir dir;
    // The fake runtime and its driver (found through RUNPATH $ORIGIN) copied where no discovery
    // looks up front.
    fs::path odd = fs::path(dir.path()) / "odd place" / "site-packages" / "nvidia";
    fs::create_directories(odd);
    fs::copy_file(fs::path(FAKECUDA_DIR) / "libcudart.so.13", odd / "libcudart.so.13");
    fs::copy_file(fs::path(FAKECUDA_DIR) / "libcuda.so.1", odd / "libcuda.so.1");
    std::string runtime = (odd / "libcudart.so.13").string();

    std::string db = dir.file("late.db");
    const int n = 50;
    auto run = run_collector(
        {"--db", db, "--quiet", "--", CW_DLOPEN_LATE_BIN, runtime, std::to_string(n)}, dir.path());
    INFO(run.stderr_text);
    REQUIRE(run.exited_ok());
    auto trace = open_trace(db);

    // Every call, including the first one right after dlopen returned.
    CHECK(query_int(trace, "SELECT count(*) FROM cuda_call WHERE op_id = 1 AND ret = 0") == n);
    CHECK(query_int(trace, "SELECT count(*) FROM cuda_call WHERE op_id = 2") == n);
    CHECK(query_int(trace, "SELECT count(*) FROM probe WHERE library = '" +
                               fs::canonical(runtime).string() + "' AND attached = 1") >= 22);
}
