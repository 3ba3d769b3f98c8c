#pragma once
// The ClickHouse side of the trace schema. Every table of schemas/trace.sql has a ClickHouse
// table with the same columns, named causeway_v<schema version>_<table>, plus the columns that
// say whose rows they are (job, node, push_id, attempt) and the row's position in the file
// (row_index). The column list is read from the embedded schema itself, so a new trace column
// reaches ClickHouse with the next schema version and no second list to keep in step.

#include <string>
#include <vector>

#include "base/result.hpp"

namespace causeway::fleet {

enum class ColumnKind { kInt64, kFloat64, kString };

struct TraceColumn {
    std::string name;
    ColumnKind kind = ColumnKind::kInt64;
    bool not_null = false;  // NOT NULL in SQLite: a plain ClickHouse type, else Nullable(...)
};

struct TraceTable {
    std::string name;  // the SQLite table
    std::vector<TraceColumn> columns;
    // True for tables scanned per thread in time order (cuda_call, offcpu): their ClickHouse
    // sorting key ends in (thread_id, ts_ns).
    bool thread_time_ordered = false;
    // True for cuda_call: a push sums its rows per thread as it sends them (node_thread), and
    // counts them as the trace's CUDA calls.
    bool cuda_calls = false;
};

// The tables of schemas/trace.sql, in name order.
Result<std::vector<TraceTable>> trace_tables();

// The prefix of every table of this schema version: 'causeway_v6_' (the trace schema's version).
std::string table_prefix();
// The ClickHouse table of a trace table (reads and writes go through it).
std::string clickhouse_table(const std::string& trace_table);

// Columns that every pushed row carries before the trace's own:
//   job      String  the training job the recording belongs to (--job)
//   node     String  the host or node name within the job (--node)
//   push_id  String  the recording's identity (push_identity.hpp)
//   attempt  UInt64  the push attempt that wrote the row (ns since the Unix epoch at its start)
//   row_index UInt64 the row's position in its SQLite table (0-based), so a copy rebuilt from
//                    ClickHouse has the rows in the file's order
inline constexpr const char* kOwnerColumns = "job, node, push_id, attempt, row_index";

std::string column_list(const TraceTable& table);

// A column that a table made by an earlier causeway lacks (a summary table's columns can grow
// within one trace schema version): added where missing, read as its default in older rows.
struct AddedColumn {
    std::string name;
    std::string type;  // with its DEFAULT
};
struct TableColumn {
    std::string table;
    AddedColumn column;
};

// CREATE TABLE IF NOT EXISTS statements for every table of the schema (trace tables and the
// tables of push_tables.hpp). Without a cluster: MergeTree tables under the names above. With
// one: MergeTree tables named ..._local (to be created on every shard) and Distributed tables
// under the names above, sharded by (job, node) so that one node's rows sit on one shard.
struct SchemaStatements {
    std::vector<std::string> local;        // run on every shard (or the only server)
    std::vector<std::string> distributed;  // run where clients read and write; empty without one
    // Columns to add where a table already made lacks them, after the statements above.
    std::vector<TableColumn> local_added;
    std::vector<TableColumn> distributed_added;
};
Result<SchemaStatements> schema_statements(const std::string& cluster);

}  // namespace causeway::fleet
