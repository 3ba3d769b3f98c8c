#pragma once
// An Ingero trace DB (https://github.com/ingero-io/ingero, format described in
// ../shared/ingero-dbs/README.md), opened so that the file is never modified, plus the catalog
// that the importer needs before it reads any event: sessions, op names, process names and which
// optional columns this version of the format has.

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "tracedb/sqlite.hpp"

namespace causeway::interop {

// One `ingero trace` invocation (table sessions). Sizes as Ingero stores them: megabytes.
struct IngeroSession {
    std::int64_t started_at_ns = 0;  // Unix epoch (ns)
    std::int64_t stopped_at_ns = 0;  // Unix epoch (ns); 0 when Ingero did not record it
    std::string gpu_model{};
    std::string gpu_driver{};
    std::string cpu_model{};
    std::int64_t cpu_cores = 0;
    std::int64_t mem_total_mb = 0;
    std::string kernel{};
    std::string ingero_version{};
    std::string pid_filter{};  // comma-separated pids; empty when Ingero traced everything
    std::string flags{};
    std::string node{};  // multi-node recordings only; empty otherwise
};

class IngeroSource {
  public:
    // Opens `path` read-only. A DB whose -wal file holds data is opened so that the WAL is read
    // (SQLite may then create a -shm file beside it, never touching the DB); where that is
    // impossible it is opened immutable and wal_unread() says what is missing. Refused with a
    // message that says what the file is: missing, not SQLite, a Causeway trace, not Ingero's.
    static Result<IngeroSource> open(const std::string& path);

    const std::string& path() const { return path_; }
    const tracedb::Database& db() const { return db_; }
    // schema_info 'version' (e.g. "0.8"); "unknown" when absent.
    const std::string& version() const { return version_; }
    // Why transactions in the -wal file could not be read; empty when none were missed.
    const std::string& wal_unread() const { return wal_unread_; }

    bool has_table(const std::string& table) const { return columns_.count(table) != 0; }
    bool has_column(const std::string& table, const std::string& column) const;

    // Node names present in events (multi-node recordings); empty for single-node files.
    Result<std::vector<std::string>> nodes() const;
    // Sessions, restricted to `node` when it is given.
    Result<std::vector<IngeroSession>> sessions(const std::optional<std::string>& node) const;
    // pid -> process name (table process_names; empty when absent).
    Result<std::map<std::int64_t, std::string>> process_names() const;

  private:
    IngeroSource() = default;

    std::string path_;
    tracedb::Database db_;
    std::string version_ = "unknown";
    std::string wal_unread_;
    std::map<std::string, std::set<std::string>> columns_;  // table -> its columns
};

}  // namespace causeway::interop
