// CUDA calls are inserted several rows per statement: every call still lands once, in order,
// with its own NULLs, and a commit makes the calls written so far visible to a reader.
#include <catch2/catch.hpp>

#include "tests/support/temp_dir.hpp"
#include "tracedb/reader.hpp"
#include "tracedb/writer.hpp"

using namespace causeway::tracedb;
using causeway::testing::TempDir;

namespace {

CudaCallRecord call_number(std::int64_t thread_id, std::int64_t i) {
    CudaCallRecord c{.thread_id = thread_id, .op_id = 7, .ts_ns = i * 10, .dur_ns = i + 1};
    if (i % 3 == 0) {  // a copy every third call; the others leave these columns NULL
        c.bytes = i * 4096;
        c.copy_kind = 1;
        c.host_pinned = i % 2;
    }
    c.ret = i % 5 == 0 ? 2 : 0;
    return c;
}

std::int64_t stored_calls(const std::string& path) {
    auto reader = TraceReader::open(path);
    REQUIRE(reader);
    auto n = reader->db().query_int64("SELECT count(*) FROM cuda_call");
    REQUIRE(n);
    return *n;
}

}  // namespace

TEST_CASE("calls written in multi-row inserts read back one by one, in order", "[tracedb]") {
    TempDir dir;
    const auto path = dir.file("run.db");
    // Not a multiple of the rows per insert, so a partial batch is left for commit() and
    // finish(); more than a transaction's worth, so a batch commit happens mid-insert too.
    const std::int64_t calls =
        TraceWriter::kDefaultBatchRows + 3 * TraceWriter::kCallsPerInsert + 5;
    {
        auto writer = TraceWriter::create(path, {.source = "test"});
        REQUIRE(writer);
        auto process = writer->add_process({.pid = 1, .comm = "python"});
        REQUIRE(process);
        auto thread = writer->add_thread({.tid = 1, .process_id = *process, .comm = "python"});
        REQUIRE(thread);
        for (std::int64_t i = 0; i < 10; ++i) {
            REQUIRE(writer->add_cuda_call(call_number(*thread, i)));
        }
        REQUIRE(writer->commit());
        CHECK(stored_calls(path) == 10);  // fewer than one insert's worth, visible after commit
        for (std::int64_t i = 10; i < calls; ++i) {
            REQUIRE(writer->add_cuda_call(call_number(*thread, i)));
        }
        REQUIRE(writer->finish(calls * 10));
        CHECK(writer->rows_written() >= calls);
    }
    auto reader = TraceReader::open(path);
    REQUIRE(reader);
    auto rows = reader->db().prepare(
        "SELECT thread_id, ts_ns, dur_ns, bytes, copy_kind, host_pinned, ret FROM cuda_call "
        "ORDER BY rowid");
    REQUIRE(rows);
    std::int64_t i = 0;
    for (; rows->step() == SQLITE_ROW; ++i) {
        CudaCallRecord expected = call_number(1, i);
        bool same = rows->column_int64(1) == expected.ts_ns &&
                    rows->column_int64(2) == expected.dur_ns &&
                    rows->column_optional_int64(3) == expected.bytes &&
                    rows->column_optional_int64(4) == expected.copy_kind &&
                    rows->column_optional_int64(5) == expected.host_pinned &&
                    rows->column_int64(6) == expected.ret;
        if (!same) {
            FAIL("row " << i << " does not hold call " << i);
        }
    }
    CHECK(i == calls);
}
