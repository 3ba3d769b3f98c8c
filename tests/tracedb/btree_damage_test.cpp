// The page reader on damaged files: bytes of cuda_call's pages are changed at random (seeded, so
// every run checks the same files). Whenever PRAGMA quick_check finds the file corrupt, the page
// reader must say so (refuse) instead of reading it; whenever it reads a file, it must read
// exactly what SQL reads.
#include <catch2/catch.hpp>

#include <sqlite3.h>

#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "tests/support/temp_dir.hpp"
#include "tests/tracedb/scan_rows.hpp"
#include "tracedb/btree_scan.hpp"
#include "tracedb/writer.hpp"

using namespace causeway::tracedb;
using namespace causeway::testing;

namespace {

const std::vector<std::string> kColumns{"thread_id", "op_id", "ts_ns",   "dur_ns",
                                        "bytes",     "ret",   "stack_id"};

std::vector<char> read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_file(const std::string& path, const std::vector<char>& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

Database open_readonly(const std::string& path) {
    sqlite3* raw = nullptr;
    sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READONLY, nullptr);
    return Database(raw);
}

// quick_check's verdict: true when it says "ok".
bool quick_check_ok(const Database& db) {
    auto stmt = db.prepare("PRAGMA quick_check");
    if (!stmt || stmt->step() != SQLITE_ROW) {
        return false;
    }
    return stmt->column_text(0) == "ok";
}

std::string write_trace(const TempDir& dir) {
    auto path = dir.file("intact.db");
    auto writer = TraceWriter::create(path, {.source = "test"});
    REQUIRE(writer);
    for (std::int64_t i = 0; i < 3000; ++i) {
        CudaCallRecord c{
            .thread_id = 1 + i % 3, .op_id = 7, .ts_ns = i * 1000, .dur_ns = 1 + i % 50};
        if (i % 4 != 0) {
            c.bytes = i * 4096;
        }
        c.ret = i % 97 == 0 ? 2 : 0;
        if (i % 9 == 0) {
            c.stack_id = i;
        }
        REQUIRE(writer->add_cuda_call(c));
    }
    REQUIRE(writer->finish(3000 * 1000));
    return path;
}

}  // namespace

TEST_CASE("a damaged cuda_call is refused, never read half-right", "[tracedb][btree]") {
    TempDir dir;
    auto intact_path = write_trace(dir);
    std::vector<std::uint32_t> pages;
    std::int64_t page_size = 0;
    {
        Database db = open_readonly(intact_path);
        auto stmt = db.prepare("SELECT pageno FROM dbstat WHERE name = 'cuda_call'");
        REQUIRE(stmt);  // SQLite built with the dbstat table (Debian's is)
        while (stmt->step() == SQLITE_ROW) {
            pages.push_back(static_cast<std::uint32_t>(stmt->column_int64(0)));
        }
        page_size = db.query_int64("PRAGMA page_size").value();
    }
    REQUIRE(pages.size() > 10);
    const std::vector<char> intact = read_file(intact_path);
    auto path = dir.file("damaged.db");
    std::mt19937 random(20261124);
    int flagged = 0, refused_damaged = 0, read_equal = 0;
    for (int mutant = 0; mutant < 600; ++mutant) {
        std::vector<char> bytes = intact;
        std::uint32_t page = pages[random() % pages.size()];
        int changes = 1 + static_cast<int>(random() % 4);
        for (int c = 0; c < changes; ++c) {
            auto offset = (page - 1) * static_cast<std::size_t>(page_size) + random() % page_size;
            bytes[offset] = static_cast<char>(random());
        }
        write_file(path, bytes);
        Database db = open_readonly(path);
        bool ok = quick_check_ok(db);
        flagged += ok ? 0 : 1;
        REQUIRE(db.exec("BEGIN"));
        auto scan = BtreeTableScan::open(db, path, "cuda_call", kColumns);
        auto from_pages = scan ? rows_from_pages(*scan, static_cast<int>(kColumns.size()))
                               : ScanResult<Rows>(scan.error());
        INFO("mutant " << mutant << " of page " << page);
        if (!from_pages) {
            refused_damaged += from_pages.error().kind == ScanRefusal::Kind::kDamaged ? 1 : 0;
            continue;
        }
        if (!ok) {
            FAIL("quick_check finds the file corrupt, yet the page reader read it");
        }
        auto with_sql = rows_with_sql(db,
                                      "SELECT rowid, thread_id, op_id, ts_ns, dur_ns, bytes, ret, "
                                      "stack_id FROM cuda_call");
        REQUIRE(with_sql);
        CHECK(first_difference(*from_pages, *with_sql).empty());
        ++read_equal;
    }
    // The mutants cover all three outcomes.
    CHECK(flagged > 100);
    CHECK(refused_damaged > 100);
    CHECK(read_equal > 50);
}
