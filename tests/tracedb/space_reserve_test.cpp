// The disk space a writer holds back for closing its DB: taken when the DB is created, given back
// when the DB is finished, when the writer goes away, or when a write finds the disk full.
#include <catch2/catch.hpp>

#include <filesystem>

#include "tests/support/temp_dir.hpp"
#include "tests/support/trace_fixture.hpp"
#include "tracedb/space_reserve.hpp"
#include "tracedb/writer.hpp"

using causeway::testing::TempDir;
using causeway::tracedb::SpaceReserve;
using causeway::tracedb::TraceWriter;

TEST_CASE("a space reserve takes its bytes and gives them back once") {
    TempDir dir;
    const std::string path = dir.file("reserve");
    SpaceReserve reserve = SpaceReserve::allocate(path, 64 * 1024);
    REQUIRE(reserve.held());
    CHECK(std::filesystem::file_size(path) == 64 * 1024);
    SpaceReserve moved = std::move(reserve);
    CHECK_FALSE(reserve.held());
    CHECK(moved.held());
    moved.release();
    CHECK_FALSE(std::filesystem::exists(path));
    moved.release();
    CHECK_FALSE(moved.held());
}

TEST_CASE("a space reserve never takes over a file that exists") {
    TempDir dir;
    const std::string path = dir.file("reserve");
    SpaceReserve first = SpaceReserve::allocate(path, 4096);
    REQUIRE(first.held());
    SpaceReserve second = SpaceReserve::allocate(path, 4096);
    CHECK_FALSE(second.held());
    CHECK(std::filesystem::exists(path));
}

TEST_CASE("a trace writer holds its reserve from create to finish") {
    TempDir dir;
    const std::string db = dir.file("run.db");
    const std::string reserve = db + "-space-reserve";
    {
        TraceWriter writer = causeway::testing::must(
            TraceWriter::create(db, causeway::testing::synthetic_session("host", "test")));
        CHECK(std::filesystem::file_size(reserve) == TraceWriter::kSpaceReserveBytes);
        causeway::testing::must(writer.finish(1'000));
        CHECK_FALSE(std::filesystem::exists(reserve));
    }
    {
        const std::string unfinished = dir.file("unfinished.db");
        {
            TraceWriter writer = causeway::testing::must(TraceWriter::create(
                unfinished, causeway::testing::synthetic_session("host", "test")));
            CHECK(std::filesystem::exists(unfinished + "-space-reserve"));
        }
        CHECK_FALSE(std::filesystem::exists(unfinished + "-space-reserve"));
    }
}
