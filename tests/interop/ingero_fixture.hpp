#pragma once
// Helpers for the interop tests: the in-repository Ingero fixture built into a temporary folder,
// the shared Ingero recordings when this machine has them, and a file digest to prove an input
// was not modified.

#include <string>
#include <vector>

#include "tests/support/temp_dir.hpp"
#include "tracedb/reader.hpp"

namespace causeway::testing {

// Builds tests/fixtures/ingero/small.sql into `dir`/ingero-small.db and returns its path.
std::string build_ingero_fixture(const TempDir& dir);

// The *.db files in ../shared/ingero-dbs, sorted. Where there are none (the recordings are
// optional fixtures beside a checkout), the test is skipped: exit 77, which CTest reports as
// skipped, never a pass that checked nothing.
std::vector<std::string> shared_ingero_dbs_or_skip();
// One of them by name, or the test is skipped as above.
std::string shared_ingero_db_or_skip(const std::string& name);

// FNV-1a 64 of the file's bytes, plus its size, as text: equal before and after = unmodified.
std::string file_digest(const std::string& path);

// Runs a query that returns one integer on a trace; fails the test when it cannot.
std::int64_t query_int(const tracedb::TraceReader& trace, const std::string& sql);
// Runs a query that returns one text value; fails the test when it cannot.
std::string query_text(const tracedb::TraceReader& trace, const std::string& sql);

}  // namespace causeway::testing
