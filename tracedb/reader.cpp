#include "tracedb/reader.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "tracedb/schema.hpp"
#include "tracedb/sqlite_header.hpp"

namespace causeway::tracedb {
namespace {

std::string folder_of(const std::string& path) {
    auto slash = path.rfind('/');
    return slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
}

bool file_exists(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0;
}

// A -wal file beside `path` that holds frames (transactions not yet checkpointed).
bool has_wal_frames(const std::string& path) {
    struct stat st {};
    return ::stat((path + "-wal").c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
}

// A WAL-mode DB that no connection has open: no -wal or -shm beside it (a writer keeps both). A
// reader's open would create them next to a file that is not ours to change (an Ingero DB left
// two files beside it), so such a DB is read as immutable.
bool wal_db_at_rest(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::uint8_t header[kSqliteHeaderBytes] = {};
    in.read(reinterpret_cast<char*>(header), sizeof header);
    return in.gcount() == static_cast<std::streamsize>(kSqliteHeaderBytes) &&
           !decode_sqlite_header(header).rollback_journal && !file_exists(path + "-wal") &&
           !file_exists(path + "-shm");
}

// "a named pipe (FIFO)", ... for a path that is not a regular file; "" for one that is.
std::string not_a_regular_file(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode)) {
        return "";
    }
    return S_ISDIR(st.st_mode)    ? "a directory"
           : S_ISFIFO(st.st_mode) ? "a named pipe (FIFO)"
           : S_ISCHR(st.st_mode)  ? "a character device"
           : S_ISBLK(st.st_mode)  ? "a block device"
           : S_ISSOCK(st.st_mode) ? "a socket"
                                  : "not a regular file";
}

Result<Database> open_readonly(const std::string& path, bool immutable) {
    const std::string uri = readonly_uri(path, immutable);
    // NOMUTEX: a reader connection is used by one thread at a time (the analysis opens one per
    // loader thread, the server serialises its own), so SQLite's per-call mutex is pure cost:
    // about a sixth of the time spent reading 10M calls.
    return Database::open(uri, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX);
}

// The tables of a SQLite file that is not ours, to say what it looks like.
std::vector<std::string> table_names(const Database& db) {
    std::vector<std::string> names;
    auto stmt = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
    if (!stmt) {
        return names;
    }
    while (stmt->step() == SQLITE_ROW) {
        names.push_back(stmt->column_text(0));
    }
    return names;
}

bool contains(const std::vector<std::string>& names, const char* name) {
    for (const auto& n : names) {
        if (n == name) {
            return true;
        }
    }
    return false;
}

std::string foreign_db_message(const std::string& path, const Database& db,
                               std::int64_t application_id) {
    auto tables = table_names(db);
    if (contains(tables, "events") && contains(tables, "schema_info")) {
        return path +
               " is an Ingero trace database, not a Causeway trace. Convert it first: "
               "causeway import --from ingero " +
               path + " converted.db";
    }
    std::string listed;
    for (std::size_t i = 0; i < tables.size() && i < 8; ++i) {
        listed += (i ? ", " : "") + tables[i];
    }
    if (tables.size() > 8) {
        listed += ", ...";
    }
    char id[32];
    std::snprintf(id, sizeof id, "0x%08llx", static_cast<unsigned long long>(application_id));
    return path + " is a SQLite database but not a Causeway trace (application_id " + id +
           (tables.empty() ? ", no tables" : ", tables: " + listed) +
           "). Record one with: sudo causeway-collector record --db run.db -- COMMAND";
}

}  // namespace

// A trace DB and its -wal file copied into a fresh folder of $TMPDIR, removed with the object.
struct TraceReader::PrivateCopy {
    std::string folder;
    std::string db_path;

    static Result<std::shared_ptr<const PrivateCopy>> make(const std::string& path) {
        const char* tmp = std::getenv("TMPDIR");
        std::string pattern =
            std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/causeway-trace.XXXXXX";
        if (::mkdtemp(pattern.data()) == nullptr) {
            return Error{"cannot make a folder for a private copy of " + path + " in " +
                         folder_of(pattern) + ": " + std::strerror(errno) +
                         " (set TMPDIR to a writable folder)"};
        }
        auto copy = std::make_shared<PrivateCopy>();
        copy->folder = pattern;
        copy->db_path = pattern + "/trace.db";
        std::error_code error;
        for (const char* suffix : {"", "-wal"}) {
            std::filesystem::copy_file(path + suffix, copy->db_path + suffix, error);
            if (error) {
                return Error{"cannot copy " + path + suffix + " to " + copy->folder + ": " +
                             error.message() + " (set TMPDIR to a folder with room for it)"};
            }
        }
        return std::shared_ptr<const PrivateCopy>(std::move(copy));
    }

    ~PrivateCopy() {
        std::error_code ignored;
        std::filesystem::remove_all(folder, ignored);
    }
};

std::string check_sqlite_header(const std::string& path) {
    // Before opening: reading a FIFO would wait for a writer, and /dev/zero never ends.
    if (const std::string kind = not_a_regular_file(path); !kind.empty()) {
        return path + " is " + kind +
               ", not a trace DB file: pass the .db file that "
               "causeway-collector wrote.";
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return "cannot open " + path + ": " + std::strerror(errno);
    }
    std::uint8_t header[kSqliteHeaderBytes] = {};
    in.read(reinterpret_cast<char*>(header), sizeof header);
    auto got = static_cast<std::size_t>(in.gcount());
    std::error_code size_error;
    auto file_bytes = static_cast<std::uint64_t>(std::filesystem::file_size(path, size_error));
    if (file_bytes == 0) {
        return path + " is empty (0 bytes): it is not a trace. Record one with causeway-collector.";
    }
    const SqliteHeader decoded = decode_sqlite_header(header);
    if (got < kSqliteHeaderBytes || !decoded.magic) {
        return path + " is not a SQLite database (" + std::to_string(file_bytes) +
               " bytes, no SQLite header): pass a trace recorded by causeway-collector.";
    }
    const std::uint32_t page_size = decoded.page_size;
    const std::uint32_t page_count = decoded.page_count;
    // With frames in a -wal file the DB's size is the WAL's to say: a checkpoint cut short (a
    // full disk) leaves the file shorter than its header while SQLite still reads it whole.
    if (decoded.page_count_valid && page_count > 0 && !has_wal_frames(path) &&
        file_bytes < static_cast<std::uint64_t>(page_count) * page_size) {
        return path + " is truncated or corrupt: its header says " + std::to_string(page_count) +
               " pages of " + std::to_string(page_size) + " bytes (" +
               std::to_string(std::uint64_t{page_count} * page_size) + " bytes) but the file has " +
               std::to_string(file_bytes) +
               " bytes. It was cut short (copy interrupted, disk full?): copy it again or "
               "re-record.";
    }
    return {};
}

Result<TraceReader> TraceReader::open(const std::string& path) {
    if (!file_exists(path)) {
        return Error{"cannot open trace DB " + path + ": no such file"};
    }
    if (auto problem = check_sqlite_header(path); !problem.empty()) {
        return Error{problem};
    }

    TraceReader reader;
    reader.path_ = path;
    const bool at_rest = wal_db_at_rest(path);
    auto db = open_readonly(path, /*immutable=*/at_rest);
    bool needs_immutable = false;
    if (!at_rest && db) {
        // A WAL DB needs its -shm file; in a folder we cannot write, the first read fails.
        auto probe = db->query_int64("PRAGMA application_id");
        needs_immutable = !probe && ::access(folder_of(path).c_str(), W_OK) != 0;
    } else if (!at_rest) {
        needs_immutable = ::access(folder_of(path).c_str(), W_OK) != 0;
    }
    if (needs_immutable && has_wal_frames(path)) {
        // Immutable would skip what the -wal holds: often most of a recording that never
        // finished (killed, or its disk full).
        auto copy = PrivateCopy::make(path);
        if (!copy) {
            return copy.error();
        }
        reader.private_copy_ = std::move(copy.value());
        db = open_readonly(reader.private_copy_->db_path, /*immutable=*/false);
        reader.notes_.push_back("read from a private copy in " + reader.private_copy_->folder +
                                " because " + folder_of(path) + " is not writable and " + path +
                                "-wal holds transactions that are not in the DB file yet");
    } else if (needs_immutable) {
        db = open_readonly(path, /*immutable=*/true);
    }
    if (!db) {
        return Error{"cannot open trace DB " + path + " read-only: " + db.error().message};
    }
    reader.db_ = std::move(db.value());
    const Database& handle = reader.db_;
    sqlite3_busy_timeout(handle.get(), 2000);

    auto application_id = handle.query_int64("PRAGMA application_id");
    if (!application_id) {
        return Error{path + " cannot be read as a SQLite database (" +
                     application_id.error().message +
                     "): it is corrupt or not a database. Re-record it or copy it again."};
    }
    if (*application_id != kApplicationId) {
        return Error{foreign_db_message(path, handle, *application_id)};
    }
    auto version = handle.query_int64("PRAGMA user_version");
    if (!version) {
        return Error{path + " is corrupt: " + version.error().message};
    }
    if (*version > kSchemaVersion) {
        return Error{path + " was written with trace schema version " + std::to_string(*version) +
                     ", newer than this causeway understands (up to " +
                     std::to_string(kSchemaVersion) + "). Upgrade causeway to read it."};
    }
    if (*version < 1) {
        return Error{path +
                     " carries the Causeway id but no schema version: it was not "
                     "completely created. Re-record it."};
    }
    reader.schema_version_ = *version;
    // Touch the catalog and the session row: a damaged file fails here, not mid-analysis.
    auto session = handle.query_int64("SELECT count(*) FROM session");
    if (!session) {
        return Error{path + " is damaged: " + session.error().message +
                     ". Re-record it or copy it again."};
    }
    if (auto status = handle.exec("PRAGMA query_only=1"); !status) {
        return Error{"cannot make " + path + " query-only: " + status.error().message};
    }
    return reader;
}

}  // namespace causeway::tracedb
