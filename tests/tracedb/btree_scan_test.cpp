// The page reader against SQL on the same files: every row and every NULL alike, and refusals
// for what it does not read (WAL files, rowid aliases, text values).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "tests/support/temp_dir.hpp"
#include "tests/tracedb/scan_rows.hpp"
#include "tracedb/btree_scan.hpp"
#include "tracedb/reader.hpp"
#include "tracedb/writer.hpp"

using namespace causeway::tracedb;
using namespace causeway::testing;

namespace {

const std::vector<std::string> kCallColumns{"thread_id", "op_id",     "ts_ns",       "dur_ns",
                                            "bytes",     "copy_kind", "host_pinned", "stream_id",
                                            "ret",       "stack_id"};

CudaCallRecord call_number(std::int64_t i) {
    CudaCallRecord c{.thread_id = 1 + i % 3, .op_id = 7, .ts_ns = wide_value(i), .dur_ns = i};
    if (i % 4 != 0) {
        c.bytes = wide_value(i / 4);
        c.host_pinned = i % 2;
    }
    c.ret = static_cast<std::int32_t>(wide_value(i / 7) & 0x7FFFFFFF) * (i % 5 == 0 ? -1 : 1);
    if (i % 9 == 0) {
        c.stack_id = i;
    }
    return c;
}

// Writes `calls` calls; finished (rollback journal) unless `finish` is false (WAL).
std::string write_trace(const TempDir& dir, std::int64_t calls, bool finish = true) {
    auto path = dir.file("run.db");
    auto writer = TraceWriter::create(path, {.source = "test"});
    REQUIRE(writer);
    for (std::int64_t i = 0; i < calls; ++i) {
        REQUIRE(writer->add_cuda_call(call_number(i)));
    }
    REQUIRE(writer->rename_thread(1, 5, std::string("python"), "pt_data_worker"));
    if (finish) {
        REQUIRE(writer->finish(calls));
    } else {
        REQUIRE(writer->commit());  // the file stays in WAL mode, as a collector killed mid-run
    }
    return path;
}

}  // namespace

TEST_CASE("rows read from the pages equal rows read with SQL", "[tracedb][btree]") {
    TempDir dir;
    const std::int64_t calls = 150'000;  // over a thousand leaves under two interior levels
    auto path = write_trace(dir, calls);
    auto reader = TraceReader::open(path);
    REQUIRE(reader);
    REQUIRE(reader->db().exec("BEGIN"));
    auto scan = BtreeTableScan::open(reader->db(), path, "cuda_call", kCallColumns);
    REQUIRE(scan);
    CHECK(scan->leaves().size() > 1000);
    CHECK(scan->rows() == calls);

    auto from_pages = rows_from_pages(*scan, 10);
    REQUIRE(from_pages);
    auto with_sql = rows_with_sql(reader->db(), "SELECT rowid, * FROM cuda_call ORDER BY rowid");
    REQUIRE(with_sql);
    CHECK(first_difference(*from_pages, *with_sql).empty());
    CHECK(from_pages->size() == static_cast<std::size_t>(calls));
}

TEST_CASE("the page reader refuses what it does not read", "[tracedb][btree]") {
    TempDir dir;
    SECTION("a WAL file, whose newest pages may be in the -wal file") {
        auto path = write_trace(dir, 100, false);
        auto reader = TraceReader::open(path);
        REQUIRE(reader);
        auto scan = BtreeTableScan::open(reader->db(), path, "cuda_call", kCallColumns);
        REQUIRE_FALSE(scan);
        CHECK(scan.error().kind == ScanRefusal::Kind::kUnsupported);
        CHECK_THAT(scan.error().reason, Catch::Contains("WAL"));
    }
    SECTION("a table with a rowid alias, and rows with text") {
        auto path = write_trace(dir, 100);
        auto reader = TraceReader::open(path);
        REQUIRE(reader);
        auto thread = BtreeTableScan::open(reader->db(), path, "thread", {"tid"});
        REQUIRE_FALSE(thread);
        CHECK_THAT(thread.error().reason, Catch::Contains("rowid alias"));
        // Text columns that are not asked for are skipped; one that is asked for is refused.
        BtreeTableScan::Buffer page;
        std::vector<BtreeTableScan::Row> rows;
        auto times = BtreeTableScan::open(reader->db(), path, "thread_rename", {"ts_ns"});
        REQUIRE(times);
        REQUIRE(times->read_leaf(0, page, rows));
        REQUIRE(rows.size() == 1);
        CHECK(rows[0].columns[0] == 5);
        auto names = BtreeTableScan::open(reader->db(), path, "thread_rename", {"new_comm"});
        REQUIRE(names);
        auto read = names->read_leaf(0, page, rows);
        REQUIRE_FALSE(read);
        CHECK(read.error().kind == ScanRefusal::Kind::kUnsupported);
        CHECK_THAT(read.error().reason, Catch::Contains("not an integer"));
    }
    SECTION("a table that does not exist") {
        auto path = write_trace(dir, 10);
        auto reader = TraceReader::open(path);
        REQUIRE(reader);
        CHECK_FALSE(BtreeTableScan::open(reader->db(), path, "no_such_table", {"x"}));
        auto missing = BtreeTableScan::open(reader->db(), path, "cuda_call", {"no_such_column"});
        REQUIRE_FALSE(missing);
        CHECK_THAT(missing.error().reason, Catch::Contains("no column no_such_column"));
    }
}
