// The reader never changes the file it reads, nor leaves files beside it, and opens a WAL trace in
// a folder it cannot write.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/support/temp_dir.hpp"
#include "tracedb/reader.hpp"
#include "tracedb/writer.hpp"

using namespace causeway::tracedb;
using causeway::testing::TempDir;

namespace {

std::string file_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream content;
    content << in.rdbuf();
    return content.str();
}

SessionRecord session() {
    return {.host = "h",
            .kernel = "k",
            .cpu_count = 1,
            .collector_version = "t",
            .collector_flags = ""};
}

}  // namespace

TEST_CASE("reading a finished trace leaves the file byte for byte unchanged", "[tracedb]") {
    TempDir dir;
    const auto path = dir.file("run.db");
    {
        auto writer = TraceWriter::create(path, session());
        REQUIRE(writer);
        REQUIRE(writer->add_snapshot({.ts_ns = 1}));
        REQUIRE(writer->finish(2));
    }
    const auto before = file_bytes(path);
    {
        auto reader = TraceReader::open(path);
        REQUIRE(reader);
        // Writes are refused by the engine.
        CHECK_FALSE(reader->db().exec("DELETE FROM system_snapshot"));
        CHECK_FALSE(reader->db().exec("CREATE TABLE x (y)"));
    }
    CHECK(file_bytes(path) == before);
    CHECK_FALSE(std::filesystem::exists(path + "-wal"));
}

namespace {

// A folder that the reader, run as nobody by as_nobody(), cannot write: made read-only by
// seal(), made writable again when the object goes so that TempDir can remove it.
struct UnwritableFolder {
    TempDir dir;
    std::string folder = dir.file("ro");
    std::string path = folder + "/run.db";

    UnwritableFolder() { std::filesystem::create_directory(folder); }
    ~UnwritableFolder() { ::chmod(folder.c_str(), 0755); }
    void seal() const {
        REQUIRE(::chmod(folder.c_str(), 0555) == 0);
        REQUIRE(::chmod(dir.path().c_str(), 0755) == 0);
    }
};

// The exit code of `body` run in a child process as the unprivileged user nobody (root may
// write anywhere), 3 when it could not become nobody.
template <class Body>
int as_nobody(Body body) {
    pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) {
            ::_exit(3);
        }
        ::_exit(body());
    }
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    REQUIRE(WIFEXITED(status));
    return WEXITSTATUS(status);
}

}  // namespace

TEST_CASE("a WAL trace left by a killed writer opens read-only in an unwritable folder",
          "[tracedb]") {
    UnwritableFolder ro;
    // A writer that never finishes leaves the DB in WAL mode, as `kill -9` does.
    auto writer = TraceWriter::create(ro.path, session());
    REQUIRE(writer);
    REQUIRE(writer->add_snapshot({.ts_ns = 1}));
    REQUIRE(writer->commit());
    ro.seal();

    CHECK(as_nobody([&] {
              auto reader = TraceReader::open(ro.path);
              if (!reader) {
                  return 1;
              }
              auto rows = reader->db().query_int64("SELECT count(*) FROM session");
              return rows && *rows == 1 ? 0 : 2;
          }) == 0);
}

TEST_CASE("what the -wal file of an unfinished trace holds is read in an unwritable folder too",
          "[tracedb]") {
    UnwritableFolder ro;
    const auto written = ro.dir.file("run.db");
    constexpr int kSnapshots = 300;
    auto writer = TraceWriter::create(written, session());
    REQUIRE(writer);
    for (int i = 0; i < kSnapshots; ++i) {
        REQUIRE(writer->add_snapshot({.ts_ns = i + 1}));
    }
    REQUIRE(writer->commit());  // in the -wal: nothing checkpoints it before the writer finishes
    // The DB and its -wal without the -shm, as copied off a node whose collector was killed.
    for (const char* suffix : {"", "-wal"}) {
        std::filesystem::copy_file(written + suffix, ro.path + suffix);
    }
    REQUIRE(std::filesystem::file_size(ro.path + "-wal") > 0);
    ro.seal();

    CHECK(as_nobody([&] {
              std::string copy_folder;
              std::int64_t rows = -1;
              {
                  auto reader = TraceReader::open(ro.path);
                  if (!reader) {
                      return 1;
                  }
                  auto counted = reader->db().query_int64("SELECT count(*) FROM system_snapshot");
                  rows = counted ? *counted : -1;
                  const auto& notes = reader->notes();
                  const auto at =
                      notes.empty() ? std::string::npos : notes[0].find("private copy in ");
                  if (notes.size() == 1 && at != std::string::npos) {
                      copy_folder = notes[0].substr(at + 16);
                      copy_folder = copy_folder.substr(0, copy_folder.find(' '));
                  }
              }
              // The reader is gone, and its copy with it.
              const bool removed = !copy_folder.empty() && !std::filesystem::exists(copy_folder);
              return rows == kSnapshots && removed ? 0 : 2;
          }) == 0);
}

TEST_CASE("a WAL database no one has open is read without leaving files beside it", "[tracedb]") {
    TempDir dir;
    const auto path = dir.file("ingero.db");
    {
        // An Ingero trace as it is shipped: WAL mode, closed, nothing beside it.
        sqlite3* db = nullptr;
        REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
        REQUIRE(sqlite3_exec(db,
                             "PRAGMA journal_mode=WAL; CREATE TABLE events(id INTEGER); "
                             "CREATE TABLE schema_info(version INTEGER);",
                             nullptr, nullptr, nullptr) == SQLITE_OK);
        REQUIRE(sqlite3_close(db) == SQLITE_OK);
    }
    REQUIRE_FALSE(std::filesystem::exists(path + "-wal"));
    const std::string before = file_bytes(path);
    auto reader = TraceReader::open(path);
    REQUIRE_FALSE(reader);
    CHECK_THAT(reader.error().message, Catch::Contains("is an Ingero trace database"));
    CHECK_FALSE(std::filesystem::exists(path + "-wal"));
    CHECK_FALSE(std::filesystem::exists(path + "-shm"));
    CHECK(file_bytes(path) == before);
}
