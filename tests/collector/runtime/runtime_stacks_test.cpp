// --stacks: each CUDA call references a user stack whose innermost frame is the called function.
#include <catch2/catch.hpp>

#include "tests/collector/runtime/collector_process.hpp"
#include "tests/support/runtime_guard.hpp"
#include "tests/support/temp_dir.hpp"

using namespace causeway::testing;

TEST_CASE("with --stacks every CUDA call has a symbolized user stack") {
    require_runtime_or_skip();
    TempDir dir;
    std::string db = dir.file("stacks.db");
    auto run = run_collector(
        {"--db", db, "--quiet", "--stacks", "--", CW_FAKE_WORKLOAD_BIN, "counts", "10"},
        dir.path());
    INFO(run.stderr_text);
    REQUIRE(run.exited_ok());
    auto trace = open_trace(db);

    CHECK(query_int(trace,
                    "SELECT count(*) FROM cuda_call WHERE op_id = 6 AND stack_id IS NOT "
                    "NULL") == 10);
    // Identical stacks of one process are stored once.
    CHECK(query_int(trace, "SELECT count(DISTINCT stack_id) FROM cuda_call WHERE op_id = 6") <= 2);
    // The uprobe fires on the function's first instruction: frame 0 is the function itself.
    CHECK(query_int(trace,
                    "SELECT count(*) FROM cuda_call c JOIN stack_frame f ON "
                    "f.stack_id = c.stack_id AND f.depth = 0 WHERE c.op_id = 6 AND "
                    "f.symbol = 'cudaMemcpy' AND f.offset = 0 AND f.module LIKE "
                    "'%libcudart.so.13'") == 10);
    CHECK(query_int(trace,
                    "SELECT count(*) FROM stack s JOIN process p ON p.id = s.process_id "
                    "WHERE p.in_tree = 1") == query_int(trace, "SELECT count(*) FROM stack"));
}
