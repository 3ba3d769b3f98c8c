// a. The real libcudart.so.13: exactly N rows per op, with their arguments and return codes (35,
// cudaErrorInsufficientDriver, on a host without a GPU; the driver's own answers on one with).
#include <catch2/catch.hpp>
#include <filesystem>

#include "tests/collector/runtime/collector_process.hpp"
#include "tests/support/cuda_device.hpp"
#include "tests/support/runtime_guard.hpp"
#include "tests/support/temp_dir.hpp"

using namespace causeway::testing;

TEST_CASE("calls into the real libcudart are recorded exactly, with arguments and return codes") {
    require_runtime_or_skip();
    if (!std::filesystem::exists(REALCUDA_CALLS_BIN)) {
        WARN("realcuda_calls was not built (no CUDA 13 toolkit): skipped");
        return;
    }
    // Both ways of attaching: uprobe_multi links and one perf-event uprobe per symbol.
    std::string attach = GENERATE(as<std::string>{}, "--quiet", "--no-uprobe-multi");
    INFO(attach);
    TempDir dir;
    std::string db = dir.file("real.db");
    auto run =
        run_collector({"--db", db, "--quiet", attach, "--", REALCUDA_CALLS_BIN, "7"}, dir.path());
    INFO(run.stderr_text);
    REQUIRE(run.exited_ok());
    auto trace = open_trace(db);
    // Without a device every call fails for want of a driver; with one, none does.
    const std::string code_check = cuda_device_present() ? " AND ret <> 35" : " AND ret = 35";

    const char* ops[] = {"cudaMalloc",
                         "cudaFree",
                         "cudaMallocHost",
                         "cudaHostAlloc",
                         "cudaFreeHost",
                         "cudaMemcpy",
                         "cudaMemcpyAsync",
                         "cudaLaunchKernel",
                         "cudaStreamSynchronize",
                         "cudaDeviceSynchronize",
                         "cudaEventSynchronize"};
    for (const char* op : ops) {
        std::string where = std::string(
                                " FROM cuda_call c JOIN cuda_op o ON o.id = c.op_id "
                                "WHERE o.name = '") +
                            op + "'";
        INFO(op);
        CHECK(query_int(trace, "SELECT count(*)" + where) == 7);
        CHECK(query_int(trace, "SELECT count(*)" + where + code_check) == 7);
        CHECK(query_int(trace, "SELECT count(*)" + where + " AND dur_ns > 0 AND ts_ns > 0") == 7);
    }
    CHECK(query_int(trace,
                    "SELECT count(*) FROM cuda_call WHERE op_id IN (6, 7) AND bytes = 4096 "
                    "AND copy_kind = 1") == 14);
    CHECK(query_int(trace,
                    "SELECT count(*) FROM cuda_call WHERE op_id IN (1, 3, 4) AND "
                    "bytes = 4096") == 21);
    CHECK(query_int(trace,
                    "SELECT count(*) FROM cuda_call WHERE op_id IN (7, 8, 9) AND "
                    "stream_id IS NOT NULL") == 21);
    CHECK(query_int(trace,
                    "SELECT count(*) FROM probe WHERE library LIKE '%libcudart.so.13' AND "
                    "kind = 'uretprobe' AND attached = 1") >= 11);
    CHECK(query_int(trace, "SELECT count(*) FROM session WHERE stop_ns IS NOT NULL") == 1);
}
