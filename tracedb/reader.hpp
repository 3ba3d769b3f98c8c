#pragma once
// Opens a trace DB for analysis: read-only, never mutating the file, refusing anything that is
// not a Causeway trace this build understands.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "tracedb/sqlite.hpp"

namespace causeway::tracedb {

class TraceReader {
  public:
    // The connection is opened without SQLite's own mutex: use it from one thread at a time.
    // Opens `path` read-only (SQLITE_OPEN_READONLY, query_only). A WAL trace in a folder the
    // reader cannot write (SQLite needs its -shm file there): one whose -wal file holds
    // transactions is read from a private copy of both files in $TMPDIR (removed when the reader
    // goes), so nothing in the -wal is lost; one without is opened immutable. notes() says which.
    // Refused, with a message that says what the file is and what to do: a missing file, a
    // file that is not SQLite, a truncated or corrupt file, a SQLite DB of another tool (an
    // Ingero trace is named as such), a trace of a newer schema version.
    static Result<TraceReader> open(const std::string& path);

    const std::string& path() const { return path_; }
    const Database& db() const { return db_; }
    std::int64_t schema_version() const { return schema_version_; }
    // Things a reader of the results should know about how the file was opened.
    const std::vector<std::string>& notes() const { return notes_; }

  private:
    TraceReader() = default;

    struct PrivateCopy;

    std::string path_;
    std::shared_ptr<const PrivateCopy> private_copy_;  // outlives db_, which reads from it
    Database db_;
    std::int64_t schema_version_ = 0;
    std::vector<std::string> notes_;
};

// Why a file cannot be read as a Causeway trace, or an empty string when it can be opened as
// SQLite at all. Refuses what is not a regular file without opening it (a FIFO, a device, a
// folder), then checks the header bytes without SQLite: magic, page size, truncation.
std::string check_sqlite_header(const std::string& path);

}  // namespace causeway::tracedb
