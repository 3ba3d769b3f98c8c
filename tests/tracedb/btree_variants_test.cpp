// The page reader against SQL on generated files: every page size SQLite allows, auto_vacuum,
// reserved bytes at the end of each page, deleted rows (free blocks), VACUUM, columns added with
// ALTER TABLE ... ADD COLUMN and a DEFAULT (rows written before then are shorter than the table),
// and rowids at both ends of int64. Each variant must give exactly SQL's rowids, values and
// NULLs, or refuse a DEFAULT it does not evaluate.
#include <catch2/catch.hpp>

#include <sqlite3.h>

#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "tests/support/temp_dir.hpp"
#include "tests/tracedb/scan_rows.hpp"
#include "tracedb/btree_scan.hpp"
#include "tracedb/sqlite.hpp"

using namespace causeway::tracedb;
using namespace causeway::testing;

namespace {

struct Variant {
    int page_size = 4096;
    int auto_vacuum = 0;  // 0 none, 1 full, 2 incremental
    int reserved_bytes = 0;
    bool delete_some = false;
    bool vacuum = false;
    bool extreme_rowids = false;
    std::string added_default{};  // the DEFAULT of a column added after the first rows; "" none
    int rows = 3000;
};

std::string describe(const Variant& v) {
    return "page " + std::to_string(v.page_size) + ", auto_vacuum " +
           std::to_string(v.auto_vacuum) + ", reserved " + std::to_string(v.reserved_bytes) +
           (v.delete_some ? ", deletes" : "") + (v.vacuum ? ", VACUUM" : "") +
           (v.extreme_rowids ? ", rowids near INT64_MIN/MAX" : "") +
           (v.added_default.empty() ? "" : ", ADD COLUMN e DEFAULT " + v.added_default);
}

Database open_writable(const std::string& path) {
    sqlite3* raw = nullptr;
    REQUIRE(sqlite3_open(path.c_str(), &raw) == SQLITE_OK);
    return Database(raw);
}

void insert_rows(const Database& db, std::int64_t first, std::int64_t count, bool with_e) {
    auto insert =
        db.prepare(with_e ? "INSERT INTO t (rowid, a, b, c, d, e) VALUES (?, ?, ?, ?, ?, ?)"
                          : "INSERT INTO t (rowid, a, b, c, d) VALUES (?, ?, ?, ?, ?)");
    REQUIRE(insert);
    for (std::int64_t n = 0; n < count; ++n) {
        std::int64_t i = first + n;  // up to INT64_MAX itself, never one past it
        insert->bind(1, i);
        insert->bind(2, wide_value(i));
        insert->bind(3, i % 5 == 0 ? std::optional<std::int64_t>{} : wide_value(i / 3));
        insert->bind(4, std::string(static_cast<std::uint64_t>(i) % 40, 'x'));  // text, never read
        insert->bind(5, wide_value(static_cast<std::int64_t>(static_cast<std::uint64_t>(i) * 7)));
        if (with_e) {
            insert->bind(
                6, i % 4 == 0
                       ? std::optional<std::int64_t>{}
                       : wide_value(static_cast<std::int64_t>(static_cast<std::uint64_t>(i) + 3)));
        }
        REQUIRE(insert->step() == SQLITE_DONE);
        insert->reset();
    }
}

// Writes the variant's file and returns its path.
std::string build(const TempDir& dir, const Variant& v) {
    auto path = dir.file("variant.db");
    std::remove(path.c_str());
    Database db = open_writable(path);
    REQUIRE(db.exec(("PRAGMA page_size = " + std::to_string(v.page_size)).c_str()));
    REQUIRE(db.exec(("PRAGMA auto_vacuum = " + std::to_string(v.auto_vacuum)).c_str()));
    int reserve = v.reserved_bytes;
    REQUIRE(sqlite3_file_control(db.get(), "main", SQLITE_FCNTL_RESERVE_BYTES, &reserve) ==
            SQLITE_OK);
    REQUIRE(db.exec("CREATE TABLE t (a INTEGER NOT NULL, b INTEGER, c TEXT, d INTEGER)"));
    REQUIRE(db.exec("BEGIN"));
    std::int64_t first = v.extreme_rowids ? std::numeric_limits<std::int64_t>::min() : 1;
    insert_rows(db, first, v.rows / 2, false);
    if (!v.added_default.empty()) {
        REQUIRE(db.exec("COMMIT"));
        REQUIRE(db.exec(("ALTER TABLE t ADD COLUMN e INTEGER DEFAULT " + v.added_default).c_str()));
        REQUIRE(db.exec("BEGIN"));
    }
    std::int64_t second = v.extreme_rowids
                              ? std::numeric_limits<std::int64_t>::max() - v.rows / 2 + 1
                              : first + v.rows / 2;
    insert_rows(db, second, v.rows - v.rows / 2, !v.added_default.empty());
    if (v.delete_some) {
        REQUIRE(db.exec("DELETE FROM t WHERE a % 3 = 0 OR rowid % 7 = 2"));
    }
    REQUIRE(db.exec("COMMIT"));
    if (v.vacuum) {
        REQUIRE(db.exec("VACUUM"));
    }
    // The file is what the variant says: its header's page size, reserved bytes, auto_vacuum.
    std::ifstream file(path, std::ios::binary);
    unsigned char header[100];
    REQUIRE(file.read(reinterpret_cast<char*>(header), sizeof header));
    CHECK(((header[16] << 8 | header[17]) == 1 ? 65536 : header[16] << 8 | header[17]) ==
          v.page_size);
    CHECK(header[20] == v.reserved_bytes);
    bool largest_root_page = (header[52] | header[53] | header[54] | header[55]) != 0;
    CHECK(largest_root_page == (v.auto_vacuum != 0));  // set only in auto_vacuum files
    CHECK((header[67] != 0) == (v.auto_vacuum == 2));  // the incremental-vacuum flag
    return path;
}

// Reads t with the page reader and with SQL and compares every row; returns the rows compared,
// or the refusal.
ScanResult<std::int64_t> compare_with_sql(const std::string& path, bool with_e) {
    sqlite3* raw = nullptr;
    REQUIRE(sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
    Database db(raw);
    REQUIRE(db.exec("BEGIN"));
    std::vector<std::string> columns{"a", "b", "d"};
    if (with_e) {
        columns.push_back("e");
    }
    auto scan = BtreeTableScan::open(db, path, "t", columns);
    if (!scan) {
        return scan.error();
    }
    auto from_pages = rows_from_pages(*scan, static_cast<int>(columns.size()));
    if (!from_pages) {
        return from_pages.error();
    }
    auto with_sql = rows_with_sql(db, with_e ? "SELECT rowid, a, b, d, e FROM t ORDER BY rowid"
                                             : "SELECT rowid, a, b, d FROM t ORDER BY rowid");
    REQUIRE(with_sql);
    std::string difference = first_difference(*from_pages, *with_sql);
    if (!difference.empty()) {
        FAIL(difference);
    }
    CHECK(static_cast<std::int64_t>(from_pages->size()) == scan->rows());
    return static_cast<std::int64_t>(from_pages->size());
}

}  // namespace

TEST_CASE("every generated variant reads exactly what SQL reads", "[tracedb][btree]") {
    TempDir dir;
    std::vector<Variant> variants;
    for (int page_size : {512, 1024, 4096, 16384, 65536}) {
        variants.push_back({.page_size = page_size});
        variants.push_back({.page_size = page_size, .delete_some = true});
        variants.push_back({.page_size = page_size, .delete_some = true, .vacuum = true});
    }
    for (int auto_vacuum : {1, 2}) {
        variants.push_back({.auto_vacuum = auto_vacuum, .delete_some = true});
        variants.push_back({.page_size = 512, .auto_vacuum = auto_vacuum, .vacuum = true});
    }
    for (int reserved : {1, 8, 32}) {
        variants.push_back({.page_size = 512, .reserved_bytes = reserved, .delete_some = true});
        variants.push_back({.reserved_bytes = reserved, .vacuum = true});
    }
    variants.push_back({.extreme_rowids = true});
    variants.push_back({.page_size = 512, .delete_some = true, .extreme_rowids = true});
    for (const char* value :
         {"0", "7", "-5", "+3", "NULL", "null", "-9223372036854775808", "9223372036854775807"}) {
        variants.push_back({.added_default = value});
        variants.push_back(
            {.page_size = 1024, .delete_some = true, .vacuum = true, .added_default = value});
    }
    variants.push_back({.page_size = 512,
                        .auto_vacuum = 1,
                        .reserved_bytes = 8,
                        .delete_some = true,
                        .vacuum = true,
                        .extreme_rowids = true,
                        .added_default = "-42"});
    for (const Variant& v : variants) {
        INFO(describe(v));
        auto path = build(dir, v);
        auto compared = compare_with_sql(path, !v.added_default.empty());
        if (!compared) {
            FAIL(compared.error().reason);
        }
        CHECK(*compared > 0);
    }
}

TEST_CASE("a DEFAULT other than NULL or an integer literal is left for SQL", "[tracedb][btree]") {
    TempDir dir;
    // A string, a real, a hex literal and one beyond int64: SQLite evaluates them (with the
    // column's affinity); the page reader leaves them to SQL. "-0" is the integer 0.
    for (const char* value : {"'7'", "1.5", "0x10", "9223372036854775808", "-0"}) {
        INFO(value);
        auto path = build(dir, {.added_default = value});
        auto compared = compare_with_sql(path, true);
        if (std::string(value) == "-0") {
            REQUIRE(compared);  // the integer 0
            continue;
        }
        REQUIRE_FALSE(compared);
        CHECK(compared.error().kind == ScanRefusal::Kind::kUnsupported);
        CHECK_THAT(compared.error().reason, Catch::Contains("DEFAULT"));
    }
}

TEST_CASE("a column SQLite reads as floating point is left for SQL", "[tracedb][btree]") {
    TempDir dir;
    auto path = dir.file("real.db");
    {
        Database db = open_writable(path);
        // 2^62 + 1 stored as an integer: SQLite reads a REAL column's value as a double.
        REQUIRE(
            db.exec("CREATE TABLE t (r REAL, d DOUBLE PRECISION, f \"FLOATING POINT\", i "
                    "INTEGER); INSERT INTO t VALUES (4611686018427387905, 1, 2, 3)"));
    }
    sqlite3* raw = nullptr;
    REQUIRE(sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
    Database db(raw);
    REQUIRE(db.exec("BEGIN"));
    for (const char* column : {"r", "d"}) {
        auto scan = BtreeTableScan::open(db, path, "t", {column});
        REQUIRE_FALSE(scan);
        CHECK_THAT(scan.error().reason, Catch::Contains("REAL affinity"));
    }
    // "FLOATING POINT" holds INT: INTEGER affinity, as SQLite decides it.
    auto scan = BtreeTableScan::open(db, path, "t", {"f", "i"});
    REQUIRE(scan);
    BtreeTableScan::Buffer buffer;
    std::vector<BtreeTableScan::Row> rows;
    REQUIRE(scan->read_leaf(0, buffer, rows));
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].columns[0] == 2);
    CHECK(rows[0].columns[1] == 3);
}
