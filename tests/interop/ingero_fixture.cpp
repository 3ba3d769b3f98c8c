#include "tests/interop/ingero_fixture.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace causeway::testing {

std::string build_ingero_fixture(const TempDir& dir) {
    std::ifstream in(CAUSEWAY_INGERO_FIXTURE_SQL);
    REQUIRE(in);
    std::stringstream sql;
    sql << in.rdbuf();
    const std::string path = dir.file("ingero-small.db");
    sqlite3* raw = nullptr;
    REQUIRE(sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                            nullptr) == SQLITE_OK);
    tracedb::Database db(raw);
    auto status = db.exec(sql.str().c_str());
    INFO((status ? std::string() : status.error().message));
    REQUIRE(status);
    return path;
}

namespace {

[[noreturn]] void skip(const std::string& missing) {
    std::fprintf(stderr, "skipped: %s is not on this machine (optional recordings)\n",
                 missing.c_str());
    std::fflush(stderr);
    std::_Exit(77);
}

}  // namespace

std::string shared_ingero_db_or_skip(const std::string& name) {
    const std::string path = std::string(CAUSEWAY_SHARED_INGERO_DIR) + "/" + name;
    if (!std::filesystem::exists(path)) {
        skip(path);
    }
    return path;
}

std::vector<std::string> shared_ingero_dbs_or_skip() {
    std::vector<std::string> paths;
    std::error_code error;
    for (const auto& entry :
         std::filesystem::directory_iterator(CAUSEWAY_SHARED_INGERO_DIR, error)) {
        if (entry.path().extension() == ".db") {
            paths.push_back(entry.path().string());
        }
    }
    if (paths.empty()) {
        skip(std::string(CAUSEWAY_SHARED_INGERO_DIR) + "/*.db");
    }
    std::sort(paths.begin(), paths.end());
    return paths;
}

std::string file_digest(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    REQUIRE(in);
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    std::uint64_t bytes = 0;
    char buffer[1 << 16];
    while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
        for (std::streamsize i = 0; i < in.gcount(); ++i) {
            hash = (hash ^ static_cast<unsigned char>(buffer[i])) * 0x100000001b3ULL;
        }
        bytes += static_cast<std::uint64_t>(in.gcount());
    }
    return std::to_string(hash) + "/" + std::to_string(bytes);
}

std::int64_t query_int(const tracedb::TraceReader& trace, const std::string& sql) {
    auto value = trace.db().query_int64(sql.c_str());
    INFO(sql << (value ? "" : ": " + value.error().message));
    REQUIRE(value);
    return *value;
}

std::string query_text(const tracedb::TraceReader& trace, const std::string& sql) {
    auto stmt = trace.db().prepare(sql);
    INFO(sql);
    REQUIRE(stmt);
    REQUIRE(stmt->step() == SQLITE_ROW);
    return stmt->column_text(0);
}

}  // namespace causeway::testing
