// Files that are not a Causeway trace this build can read are refused with a clear message.
#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "tests/support/temp_dir.hpp"
#include "tracedb/reader.hpp"
#include "tracedb/writer.hpp"

using namespace causeway::tracedb;
using causeway::testing::TempDir;

namespace {

void run_sql(const std::string& path, const char* sql) {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
    REQUIRE(sqlite3_exec(db, sql, nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(db);
}

std::string write_trace(const TempDir& dir, int snapshots) {
    const auto path = dir.file("run.db");
    auto writer = TraceWriter::create(path, {.host = "h",
                                             .kernel = "k",
                                             .cpu_count = 1,
                                             .collector_version = "t",
                                             .collector_flags = ""});
    REQUIRE(writer);
    for (int i = 0; i < snapshots; ++i) {
        REQUIRE(writer->add_snapshot({.ts_ns = i}));
    }
    REQUIRE(writer->finish(1));
    return path;
}

std::string refusal(const std::string& path) {
    auto reader = TraceReader::open(path);
    REQUIRE_FALSE(reader);
    return reader.error().message;
}

}  // namespace

TEST_CASE("a missing file is refused", "[tracedb]") {
    TempDir dir;
    CHECK_THAT(refusal(dir.file("nope.db")), Catch::Contains("no such file"));
}

TEST_CASE("a file that is not SQLite is refused", "[tracedb]") {
    TempDir dir;
    const auto path = dir.file("notes.db");
    std::ofstream(path) << "this is a text file, long enough to have a header of a hundred bytes "
                           "so that only the magic tells it apart from SQLite ...............\n";
    CHECK_THAT(refusal(path), Catch::Contains("is not a SQLite database"));

    const auto empty = dir.file("empty.db");
    std::ofstream{empty};
    CHECK_THAT(refusal(empty), Catch::Contains("is empty"));
}

TEST_CASE("a foreign SQLite database is refused and described", "[tracedb]") {
    TempDir dir;
    const auto path = dir.file("app.db");
    run_sql(path, "CREATE TABLE users (id INTEGER, name TEXT);");
    auto message = refusal(path);
    CHECK_THAT(message, Catch::Contains("not a Causeway trace"));
    CHECK_THAT(message, Catch::Contains("users"));
}

TEST_CASE("an Ingero trace is refused with the import command", "[tracedb]") {
    TempDir dir;
    const auto path = dir.file("ingero.db");
    run_sql(path, "CREATE TABLE events (timestamp INTEGER); CREATE TABLE schema_info (k TEXT);");
    CHECK_THAT(refusal(path), Catch::Contains("causeway import --from ingero"));
}

TEST_CASE("a trace of a newer schema is refused", "[tracedb]") {
    TempDir dir;
    const auto path = write_trace(dir, 1);
    run_sql(path, "PRAGMA user_version = 99;");
    auto message = refusal(path);
    CHECK_THAT(message, Catch::Contains("schema version 99"));
    CHECK_THAT(message, Catch::Contains("Upgrade causeway"));
}

TEST_CASE("a truncated trace is refused", "[tracedb]") {
    TempDir dir;
    const auto path = write_trace(dir, 5000);
    auto size = std::filesystem::file_size(path);
    std::filesystem::resize_file(path, size / 2);
    CHECK_THAT(refusal(path), Catch::Contains("truncated"));
}

TEST_CASE("a trace with a damaged page is refused", "[tracedb]") {
    TempDir dir;
    const auto path = write_trace(dir, 1);
    // Overwrite the first page's schema b-tree, leaving the 100-byte header intact.
    {
        std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
        file.seekp(100);
        std::string garbage(3000, '\xA5');
        file.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
    }
    auto message = refusal(path);
    CHECK((message.find("corrupt") != std::string::npos ||
           message.find("damaged") != std::string::npos));
}
