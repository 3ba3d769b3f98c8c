// Every Ingero recording in ../shared/ingero-dbs (real data from GPU machines, when this machine
// has the folder) imports without touching the file, and every stored CUDA event arrives.
#include <catch2/catch.hpp>

#include <filesystem>

#include "interop/ingero_import.hpp"
#include "tests/interop/ingero_fixture.hpp"
#include "tracedb/reader.hpp"

using namespace causeway;
using causeway::testing::query_int;

namespace {

// Counts in the Ingero file itself, read without touching it.
std::int64_t ingero_count(const std::string& path, const std::string& where) {
    sqlite3* raw = nullptr;
    const std::string uri = "file:" + path + "?mode=ro&immutable=1";
    REQUIRE(sqlite3_open_v2(uri.c_str(), &raw, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) ==
            SQLITE_OK);
    tracedb::Database db(raw);
    auto count = db.query_int64(("SELECT count(*) FROM events WHERE " + where).c_str());
    REQUIRE(count);
    return *count;
}

}  // namespace

TEST_CASE("each shared Ingero recording imports, read-only, with every CUDA event",
          "[interop][ingero][shared]") {
    for (const auto& in_path : causeway::testing::shared_ingero_dbs_or_skip()) {
        DYNAMIC_SECTION(std::filesystem::path(in_path).filename().string()) {
            causeway::testing::TempDir dir;
            const auto out_path = dir.file("imported.db");
            const auto digest = causeway::testing::file_digest(in_path);
            auto summary = interop::import_ingero(in_path, out_path, {});
            INFO((summary ? std::string() : summary.error().message));
            REQUIRE(summary);
            CHECK(causeway::testing::file_digest(in_path) == digest);
            CHECK_FALSE(std::filesystem::exists(in_path + "-shm"));

            auto trace = tracedb::TraceReader::open(out_path);
            REQUIRE(trace);
            CHECK(query_int(*trace, "SELECT count(*) FROM cuda_call") ==
                  ingero_count(in_path, "source IN (1, 4)"));
            CHECK(query_int(*trace, "SELECT count(*) FROM offcpu") <=
                  ingero_count(in_path, "source = 3 AND op = 1"));
            CHECK(query_int(*trace,
                            "SELECT count(*) FROM cuda_call c LEFT JOIN thread t ON "
                            "t.id = c.thread_id WHERE t.id IS NULL") == 0);
            CHECK(query_int(*trace, "SELECT count(*) FROM process WHERE in_tree = 1") > 0);
            CHECK(query_int(*trace, "SELECT min(ts_ns) FROM cuda_call") >= 0);
            CHECK(query_int(*trace, "SELECT count(*) FROM data_quality") > 0);
            CHECK(summary->events_read == ingero_count(in_path, "1"));
        }
    }
}

TEST_CASE("one node of a multi-node Ingero recording imports on its own",
          "[interop][ingero][shared]") {
    const std::string in_path = causeway::testing::shared_ingero_db_or_skip("sample-cluster.db");
    causeway::testing::TempDir dir;
    auto merged = interop::import_ingero(in_path, dir.file("all.db"), {});
    REQUIRE(merged);
    auto one = interop::import_ingero(in_path, dir.file("one.db"), {.node = "gpu-node-02"});
    REQUIRE(one);
    CHECK(one->events_read == ingero_count(in_path, "node = 'gpu-node-02'"));
    auto trace = tracedb::TraceReader::open(dir.file("one.db"));
    REQUIRE(trace);
    CHECK(causeway::testing::query_text(*trace, "SELECT host FROM session") == "gpu-node-02");
    auto all = tracedb::TraceReader::open(dir.file("all.db"));
    REQUIRE(all);
    CHECK(query_int(*all, "SELECT count(*) FROM data_quality WHERE counter = 'nodes_merged'") == 1);

    auto missing = interop::import_ingero(in_path, dir.file("none.db"), {.node = "gpu-node-09"});
    REQUIRE_FALSE(missing);
    CHECK_THAT(missing.error().message, Catch::Contains("gpu-node-01, gpu-node-02, gpu-node-03"));
}
