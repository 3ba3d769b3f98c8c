#include "interop/ingero_ops.hpp"

#include <algorithm>
#include <cctype>

#include "tracedb/schema.hpp"

namespace causeway::interop {
namespace {

struct CausewayOp {
    std::int64_t id = 0;
    std::string api{};
    std::string category{};
};

// Causeway's own cuda_op table, read from the embedded schema so the two never disagree.
Result<std::map<std::string, CausewayOp>> causeway_ops() {
    auto opened = tracedb::Database::open(":memory:", SQLITE_OPEN_READWRITE);
    if (!opened) {
        return Error{"cannot open an in-memory database to read the trace schema's ops: " +
                     opened.error().message};
    }
    const tracedb::Database& db = *opened;
    std::string schema(tracedb::schema_sql());
    if (auto status = db.exec(schema.c_str()); !status) {
        return Error{"cannot load the trace schema: " + status.error().message};
    }
    auto stmt = db.prepare("SELECT id, name, api, category FROM cuda_op");
    if (!stmt) {
        return stmt.error();
    }
    std::map<std::string, CausewayOp> ops;
    while (stmt->step() == SQLITE_ROW) {
        ops[stmt->column_text(1)] = {stmt->column_int64(0), stmt->column_text(2),
                                     stmt->column_text(3)};
    }
    return ops;
}

// Ingero names that differ from the exported symbol Causeway uses for the same call.
std::string causeway_name(const std::string& ingero_name) {
    static const std::map<std::string, std::string> kAliases = {
        {"cudaStreamSync", "cudaStreamSynchronize"},
        {"cudaDeviceSync", "cudaDeviceSynchronize"},
        {"cuMemAlloc", "cuMemAlloc_v2"},
    };
    auto it = kAliases.find(ingero_name);
    return it == kAliases.end() ? ingero_name : it->second;
}

bool contains(const std::string& text, const char* part) {
    return text.find(part) != std::string::npos;
}

// Category of a CUDA call Causeway does not know, from its name.
std::string guess_category(const std::string& name) {
    if (contains(name, "Memcpy") || contains(name, "Memset")) {
        return "copy";
    }
    if (contains(name, "Free")) {
        return "free";
    }
    if (contains(name, "Alloc")) {
        return "alloc";
    }
    if (contains(name, "Sync")) {
        return "sync";
    }
    if (contains(name, "Launch")) {
        return "kernel";
    }
    if (contains(name, "Stream")) {
        return "stream";
    }
    if (contains(name, "Event")) {
        return "event";
    }
    return "other";
}

IngeroOpInfo host_op(const std::string& name) {
    static const std::map<std::string, std::pair<IngeroEventKind, const char*>> kHostOps = {
        {"sched_switch", {IngeroEventKind::kSchedSwitch, "sched"}},
        {"sched_wakeup", {IngeroEventKind::kSchedWakeup, "sched"}},
        {"process_fork", {IngeroEventKind::kProcessFork, "lifecycle"}},
        {"process_exit", {IngeroEventKind::kProcessExit, "lifecycle"}},
        {"process_exec", {IngeroEventKind::kProcessExec, "lifecycle"}},
        {"mm_page_alloc", {IngeroEventKind::kPageAlloc, "page_alloc"}},
    };
    auto it = kHostOps.find(name);
    if (it == kHostOps.end()) {
        return {.kind = IngeroEventKind::kCountOnly, .event = name, .area = "host"};
    }
    return {.kind = it->second.first, .event = name, .area = it->second.second};
}

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

}  // namespace

Result<IngeroOpTable> IngeroOpTable::load(const IngeroSource& source) {
    auto known = causeway_ops();
    if (!known) {
        return known.error();
    }
    const auto& db = source.db();
    std::map<std::int64_t, std::string> source_names;
    auto sources = db.prepare("SELECT id, name FROM sources");
    if (!sources) {
        return sources.error();
    }
    while (sources->step() == SQLITE_ROW) {
        source_names[sources->column_int64(0)] = sources->column_text(1);
    }

    IngeroOpTable table;
    std::int64_t next_imported_id = 1001;
    auto ops = db.prepare("SELECT source_id, op_id, name FROM ops ORDER BY source_id, op_id");
    if (!ops) {
        return ops.error();
    }
    while (ops->step() == SQLITE_ROW) {
        std::int64_t source_id = ops->column_int64(0);
        std::string name = ops->column_text(2);
        const std::string& source_name = source_names[source_id];
        IngeroOpInfo info;
        if (source_name == "CUDA" || source_name == "DRIVER") {
            std::string api = source_name == "CUDA" ? "runtime" : "driver";
            info = {
                .kind = IngeroEventKind::kCudaCall, .event = causeway_name(name), .area = "cuda"};
            auto it = known->find(info.event);
            std::string category;
            if (it != known->end()) {
                info.cuda_op_id = it->second.id;
                category = it->second.category;
            } else {
                category = guess_category(info.event);
                info.cuda_op_id = next_imported_id++;
                table.imported_ops_.push_back({info.cuda_op_id, info.event, api, category});
            }
            info.arg0_is_bytes = category == "alloc" || category == "copy";
            info.arg1_is_copy_kind = api == "runtime" && category == "copy";
        } else if (source_name == "HOST") {
            info = host_op(name);
        } else {
            info = {.kind = IngeroEventKind::kCountOnly,
                    .event = name,
                    .area = source_name.empty() ? "other" : lower(source_name)};
        }
        table.ops_[{source_id, ops->column_int64(1)}] = std::move(info);
    }

    std::string used_sql = "SELECT DISTINCT source, op FROM events";
    if (source.has_table("event_aggregates")) {
        used_sql += " UNION SELECT DISTINCT source, op FROM event_aggregates";
    }
    auto used = db.prepare(used_sql);
    if (!used) {
        return used.error();
    }
    while (used->step() == SQLITE_ROW) {
        std::pair<std::int64_t, std::int64_t> key{used->column_int64(0), used->column_int64(1)};
        if (table.ops_.count(key) == 0) {
            table.ops_[key] = {
                .kind = IngeroEventKind::kCountOnly,
                .event = "source" + std::to_string(key.first) + ".op" + std::to_string(key.second),
                .area = "other"};
        }
    }
    return table;
}

const IngeroOpInfo& IngeroOpTable::classify(std::int64_t source, std::int64_t op) const {
    static const IngeroOpInfo kUnlisted{
        .kind = IngeroEventKind::kCountOnly, .event = "unlisted", .area = "other"};
    auto it = ops_.find({source, op});
    return it == ops_.end() ? kUnlisted : it->second;
}

std::vector<std::pair<std::int64_t, std::int64_t>> IngeroOpTable::pairs_of(
    IngeroEventKind kind) const {
    std::vector<std::pair<std::int64_t, std::int64_t>> pairs;
    for (const auto& [key, info] : ops_) {
        if (info.kind == kind) {
            pairs.push_back(key);
        }
    }
    return pairs;
}

std::string sql_match(const std::vector<std::pair<std::int64_t, std::int64_t>>& pairs) {
    if (pairs.empty()) {
        return "0";
    }
    std::string sql = "(";
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        sql += (i ? " OR " : "") + std::string("(source = ") + std::to_string(pairs[i].first) +
               " AND op = " + std::to_string(pairs[i].second) + ")";
    }
    return sql + ")";
}

}  // namespace causeway::interop
