#include "fleet/trace_tables.hpp"

#include <sqlite3.h>

#include "fleet/push_tables.hpp"
#include "tracedb/schema.hpp"
#include "tracedb/sqlite.hpp"

namespace causeway::fleet {
namespace {

ColumnKind kind_of(const std::string& sqlite_type) {
    if (sqlite_type == "INTEGER") {
        return ColumnKind::kInt64;
    }
    if (sqlite_type == "REAL") {
        return ColumnKind::kFloat64;
    }
    return ColumnKind::kString;  // TEXT (and BLOB, of which the schema has none)
}

std::string clickhouse_type(const TraceColumn& column) {
    std::string type = column.kind == ColumnKind::kInt64     ? "Int64"
                       : column.kind == ColumnKind::kFloat64 ? "Float64"
                                                             : "String";
    return column.not_null ? type : "Nullable(" + type + ")";
}

bool has_column(const TraceTable& table, const std::string& name) {
    for (const auto& column : table.columns) {
        if (column.name == name && column.not_null) {
            return true;
        }
    }
    return false;
}

// One table as MergeTree (named `name`), or as MergeTree `name`_local plus a Distributed `name`.
// `added`: its columns that a table made by an earlier causeway lacks.
void add_table(SchemaStatements& out, const std::string& name, std::string columns,
               const std::string& engine, const std::string& order_by, const std::string& cluster,
               const std::vector<AddedColumn>& added = {}) {
    std::string local_name = cluster.empty() ? name : name + "_local";
    for (const AddedColumn& column : added) {
        columns += ", " + column.name + " " + column.type;
        out.local_added.push_back({local_name, column});
        if (!cluster.empty()) {
            out.distributed_added.push_back({name, column});
        }
    }
    out.local.push_back("CREATE TABLE IF NOT EXISTS " + local_name + " (" + columns +
                        ") ENGINE = " + engine + " ORDER BY (" + order_by + ")");
    if (!cluster.empty()) {
        out.distributed.push_back("CREATE TABLE IF NOT EXISTS " + name + " (" + columns +
                                  ") ENGINE = Distributed(" + cluster + ", currentDatabase(), " +
                                  local_name + ", cityHash64(job, node))");
    }
}

}  // namespace

Result<std::vector<TraceTable>> trace_tables() {
    sqlite3* raw = nullptr;
    if (sqlite3_open(":memory:", &raw) != SQLITE_OK) {
        sqlite3_close(raw);
        return Error{"cannot open an in-memory SQLite DB to read the trace schema"};
    }
    tracedb::Database db(raw);
    std::string schema(tracedb::schema_sql());
    if (auto created = db.exec(schema.c_str()); !created) {
        return Error{"the embedded trace schema does not run: " + created.error().message};
    }
    auto names = db.prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
        "ORDER BY name");
    if (!names) {
        return names.error();
    }
    std::vector<TraceTable> tables;
    while (names->step() == SQLITE_ROW) {
        TraceTable table{names->column_text(0), {}, false};
        auto info = db.prepare("SELECT name, type, \"notnull\" FROM pragma_table_info(?1)");
        if (!info) {
            return info.error();
        }
        info->bind(1, table.name);
        while (info->step() == SQLITE_ROW) {
            table.columns.push_back(
                {info->column_text(0), kind_of(info->column_text(1)), info->column_int64(2) != 0});
        }
        table.thread_time_ordered = has_column(table, "thread_id") && has_column(table, "ts_ns");
        table.cuda_calls = table.name == "cuda_call";
        tables.push_back(std::move(table));
    }
    return tables;
}

std::string table_prefix() {
    return "causeway_v" + std::to_string(tracedb::kSchemaVersion) + "_";
}

std::string clickhouse_table(const std::string& trace_table) {
    return table_prefix() + trace_table;
}

std::string column_list(const TraceTable& table) {
    std::string list;
    for (const auto& column : table.columns) {
        list += (list.empty() ? "" : ", ") + column.name;
    }
    return list;
}

Result<SchemaStatements> schema_statements(const std::string& cluster) {
    auto tables = trace_tables();
    if (!tables) {
        return tables.error();
    }
    SchemaStatements out;
    const std::string owner =
        "job String, node String, push_id String, attempt UInt64, row_index UInt64";
    for (const auto& table : *tables) {
        std::string columns = owner;
        for (const auto& column : table.columns) {
            columns += ", " + column.name + " " + clickhouse_type(column);
        }
        std::string order_by = table.thread_time_ordered ? "job, node, thread_id, ts_ns"
                                                         : "job, node, push_id, row_index";
        add_table(out, clickhouse_table(table.name), columns, "MergeTree", order_by, cluster);
    }
    add_table(out, push_table(),
              "job String, node String, rank Int64, push_id String, attempt UInt64, "
              "complete UInt8, version_ns UInt64, rows_stored UInt64, host String, source String",
              "ReplacingMergeTree(version_ns)", "job, node", cluster);
    add_table(out, node_cause_table(),
              "job String, node String, push_id String, attempt UInt64, chain_index UInt64, "
              "cause String, root_cause String, lost_ns Int64, verdict String, "
              "actor_kind String, actor String, container_runtime String, container_id String, "
              "pod_uid String, pod_qos String",
              "MergeTree", "job, node, push_id, attempt, chain_index", cluster,
              {{"speedup", "Float64 DEFAULT 0"}, {"device_twice_as_fast", "UInt8 DEFAULT 0"}});
    const std::string rank_owner =
        "job String, node String, push_id String, attempt UInt64, comm_size Int64, "
        "comm_order Int64, rank Int64";
    add_table(out, node_rank_table(),
              rank_owner + ", pid Int64, collectives UInt64, last_call String, stuck_at String",
              "MergeTree", "job, node, push_id, attempt, comm_size, comm_order, rank", cluster);
    add_table(out, node_collective_table(),
              rank_owner + ", number UInt64, arrival_ns Int64, left_ns Int64", "MergeTree",
              "job, node, push_id, attempt, comm_size, comm_order, rank, number", cluster);
    add_table(out, node_thread_table(),
              "job String, node String, push_id String, attempt UInt64, thread_id Int64, "
              "calls UInt64, first_ts_ns Int64, last_end_ns Int64",
              "MergeTree", "job, node, push_id, attempt, thread_id", cluster);
    return out;
}

}  // namespace causeway::fleet
