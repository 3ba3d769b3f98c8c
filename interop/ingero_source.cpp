#include "interop/ingero_source.hpp"

#include <sys/stat.h>

#include "tracedb/reader.hpp"
#include "tracedb/schema.hpp"

namespace causeway::interop {
namespace {

using tracedb::Database;

std::int64_t file_bytes(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 ? static_cast<std::int64_t>(st.st_size) : -1;
}

Result<Database> open_uri(const std::string& path, bool immutable) {
    auto db = Database::open(tracedb::readonly_uri(path, immutable),
                             SQLITE_OPEN_READONLY | SQLITE_OPEN_URI);
    if (!db) {
        return db.error();
    }
    // The first read fails here, not later, when the WAL cannot be used.
    if (auto probe = db->query_int64("SELECT count(*) FROM sqlite_master"); !probe) {
        return probe.error();
    }
    return db;
}

std::string text_or_empty(const tracedb::Statement& stmt, int col) {
    return stmt.column_is_null(col) ? std::string() : stmt.column_text(col);
}

}  // namespace

Result<IngeroSource> IngeroSource::open(const std::string& path) {
    if (file_bytes(path) < 0) {
        return Error{"cannot import " + path + ": no such file"};
    }
    if (auto problem = tracedb::check_sqlite_header(path); !problem.empty()) {
        return Error{"cannot import: " + problem};
    }
    IngeroSource source;
    source.path_ = path;
    Result<Database> db = Error{};
    if (file_bytes(path + "-wal") > 0) {
        db = open_uri(path, /*immutable=*/false);
        if (!db) {
            source.wal_unread_ = path + "-wal holds transactions that could not be read (" +
                                 db.error().message +
                                 "); copy the DB and its -wal file to a writable folder and "
                                 "import the copy to include them";
        }
    }
    if (!db) {
        db = open_uri(path, /*immutable=*/true);
    }
    if (!db) {
        return Error{"cannot open " + path + " read-only: " + db.error().message};
    }
    source.db_ = std::move(db.value());

    auto application_id = source.db_.query_int64("PRAGMA application_id");
    if (application_id && *application_id == tracedb::kApplicationId) {
        return Error{path +
                     " is already a Causeway trace: there is nothing to import. Use it "
                     "directly, e.g. causeway explain --db " +
                     path};
    }
    auto tables = source.db_.prepare(
        "SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p "
        "WHERE m.type = 'table'");
    if (!tables) {
        return Error{path + " cannot be read as a SQLite database (" + tables.error().message +
                     "): it is corrupt or not a database"};
    }
    while (tables->step() == SQLITE_ROW) {
        source.columns_[tables->column_text(0)].insert(tables->column_text(1));
    }
    for (const char* required : {"events", "ops", "sources"}) {
        if (!source.has_table(required)) {
            std::string listed;
            for (const auto& [table, columns] : source.columns_) {
                listed += (listed.empty() ? "" : ", ") + table;
            }
            return Error{path + " is a SQLite database but not an Ingero trace (it has no '" +
                         required + "' table; tables: " + (listed.empty() ? "none" : listed) +
                         "). causeway import --from ingero reads DBs written by `ingero trace`"};
        }
    }
    for (const char* column :
         {"timestamp", "pid", "tid", "source", "op", "duration", "arg0", "arg1", "ret_code"}) {
        if (!source.has_column("events", column)) {
            return Error{path + " looks like an Ingero trace but its events table lacks the '" +
                         column + "' column: this version of the format is not supported"};
        }
    }
    if (source.has_table("schema_info")) {
        auto version = source.db_.prepare("SELECT value FROM schema_info WHERE key = 'version'");
        if (version && version->step() == SQLITE_ROW) {
            source.version_ = version->column_text(0);
        }
    }
    return source;
}

bool IngeroSource::has_column(const std::string& table, const std::string& column) const {
    auto it = columns_.find(table);
    return it != columns_.end() && it->second.count(column) != 0;
}

Result<std::vector<std::string>> IngeroSource::nodes() const {
    std::vector<std::string> names;
    if (!has_column("events", "node")) {
        return names;
    }
    auto stmt = db_.prepare("SELECT DISTINCT node FROM events WHERE node != '' ORDER BY node");
    if (!stmt) {
        return stmt.error();
    }
    while (stmt->step() == SQLITE_ROW) {
        names.push_back(stmt->column_text(0));
    }
    return names;
}

Result<std::vector<IngeroSession>> IngeroSource::sessions(
    const std::optional<std::string>& node) const {
    std::vector<IngeroSession> sessions;
    if (!has_table("sessions")) {
        return sessions;
    }
    // Columns came and went between Ingero versions: absent ones read as empty.
    const char* wanted[] = {"started_at", "stopped_at", "gpu_model", "gpu_driver",
                            "cpu_model",  "cpu_cores",  "mem_total", "kernel",
                            "ingero_ver", "pid_filter", "flags",     "node"};
    std::string sql = "SELECT ";
    for (std::size_t i = 0; i < std::size(wanted); ++i) {
        sql += (i ? ", " : "") +
               (has_column("sessions", wanted[i]) ? std::string(wanted[i]) : std::string("NULL"));
    }
    sql += " FROM sessions";
    bool filter = node && has_column("sessions", "node");
    if (filter) {
        sql += " WHERE node = ?";
    }
    sql += " ORDER BY started_at";
    auto stmt = db_.prepare(sql);
    if (!stmt) {
        return stmt.error();
    }
    if (filter) {
        stmt->bind(1, *node);
    }
    while (stmt->step() == SQLITE_ROW) {
        IngeroSession s;
        s.started_at_ns = stmt->column_int64(0);
        s.stopped_at_ns = stmt->column_int64(1);
        s.gpu_model = text_or_empty(*stmt, 2);
        s.gpu_driver = text_or_empty(*stmt, 3);
        s.cpu_model = text_or_empty(*stmt, 4);
        s.cpu_cores = stmt->column_int64(5);
        s.mem_total_mb = stmt->column_int64(6);
        s.kernel = text_or_empty(*stmt, 7);
        s.ingero_version = text_or_empty(*stmt, 8);
        s.pid_filter = text_or_empty(*stmt, 9);
        s.flags = text_or_empty(*stmt, 10);
        s.node = text_or_empty(*stmt, 11);
        sessions.push_back(std::move(s));
    }
    return sessions;
}

Result<std::map<std::int64_t, std::string>> IngeroSource::process_names() const {
    std::map<std::int64_t, std::string> names;
    if (!has_table("process_names")) {
        return names;
    }
    auto stmt = db_.prepare("SELECT pid, name FROM process_names");
    if (!stmt) {
        return stmt.error();
    }
    while (stmt->step() == SQLITE_ROW) {
        names[stmt->column_int64(0)] = stmt->column_text(1);
    }
    return names;
}

}  // namespace causeway::interop
