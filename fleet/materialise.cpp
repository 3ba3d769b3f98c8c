#include "fleet/materialise.hpp"

#include <sqlite3.h>
#include <sys/stat.h>

#include <algorithm>

#include "fleet/push_tables.hpp"
#include "fleet/row_binary.hpp"
#include "fleet/trace_tables.hpp"
#include "tracedb/schema.hpp"
#include "tracedb/sqlite.hpp"

namespace causeway::fleet {
namespace {

// Rows per request: bounds the memory one response takes (a page of calls is ~40 MB).
constexpr std::uint64_t kPageRows = 1'000'000;

template <class T>
Status bind_value(Result<T> value, tracedb::Statement& insert, int index) {
    if (!value) {
        return value.error();
    }
    insert.bind(index, *value);
    return Ok{};
}

Status read_value(RowBinaryReader& in, tracedb::Statement& insert, int index,
                  const TraceColumn& column) {
    if (!column.not_null) {
        auto is_null = in.null_flag();
        if (!is_null) {
            return is_null.error();
        }
        if (*is_null) {
            insert.bind_null(index);
            return Ok{};
        }
    }
    switch (column.kind) {
        case ColumnKind::kInt64:
            return bind_value(in.int64(), insert, index);
        case ColumnKind::kFloat64:
            return bind_value(in.float64(), insert, index);
        case ColumnKind::kString:
            return bind_value(in.string(), insert, index);
    }
    return Ok{};
}

// Copies one table of the node, page by page, in the order of the pushed file.
Status copy_table(const ClickHouseClient& client, const std::string& node_condition,
                  const TraceTable& table, const tracedb::Database& db) {
    std::string columns = column_list(table);
    std::string placeholders;
    for (std::size_t i = 0; i < table.columns.size(); ++i) {
        placeholders += i == 0 ? "?" : ", ?";
    }
    // OR REPLACE: the new file's schema already holds the rows every trace starts with (meta,
    // cuda_op); the pushed ones are the same or newer.
    auto insert = db.prepare("INSERT OR REPLACE INTO " + table.name + " (" + columns +
                             ") VALUES (" + placeholders + ")");
    if (!insert) {
        return insert.error();
    }
    for (std::uint64_t first = 0;; first += kPageRows) {
        auto body = client.query(
            "SELECT " + columns + " FROM " + clickhouse_table(table.name) + " WHERE " +
            node_condition + " AND row_index >= " + std::to_string(first) + " AND row_index < " +
            std::to_string(first + kPageRows) + " ORDER BY row_index FORMAT RowBinary");
        if (!body) {
            return body.error();
        }
        RowBinaryReader in(*body, "table " + table.name);
        std::uint64_t rows = 0;
        while (!in.at_end()) {
            for (std::size_t col = 0; col < table.columns.size(); ++col) {
                if (auto read =
                        read_value(in, *insert, static_cast<int>(col) + 1, table.columns[col]);
                    !read) {
                    return read;
                }
            }
            if (insert->step() != SQLITE_DONE) {
                return Error{"cannot write a row of " + table.name + ": " + db.last_error()};
            }
            insert->reset();
            ++rows;
        }
        if (rows < kPageRows) {
            return Ok{};
        }
    }
}

// A one-String-column SELECT as a list.
Result<std::vector<std::string>> read_names(const ClickHouseClient& client, const std::string& sql,
                                            const std::string& what) {
    auto body = client.query(sql + " FORMAT RowBinary");
    if (!body) {
        return body.error();
    }
    RowBinaryReader in(*body, what);
    std::vector<std::string> names;
    while (!in.at_end()) {
        auto name = in.string();
        if (!name) {
            return name.error();
        }
        names.push_back(std::move(*name));
    }
    return names;
}

}  // namespace

Result<std::vector<std::string>> stored_jobs(const ClickHouseClient& client) {
    return read_names(client,
                      "SELECT DISTINCT job FROM (SELECT job, node, argMax(complete, version_ns) AS "
                      "complete FROM " +
                          push_table() + " GROUP BY job, node) WHERE complete = 1 ORDER BY job",
                      "the stored jobs");
}

Result<std::vector<std::string>> stored_nodes(const ClickHouseClient& client,
                                              const std::string& job) {
    return read_names(client, "SELECT node FROM (" + visible_pushes_sql(job) + ") ORDER BY node",
                      "the nodes of job " + job);
}

Status materialise_node(const ClickHouseClient& client, const std::string& job,
                        const std::string& node, const std::string& out_path) {
    auto nodes = stored_nodes(client, job);
    if (!nodes) {
        return nodes.error();
    }
    if (std::find(nodes->begin(), nodes->end(), node) == nodes->end()) {
        std::string known;
        for (const auto& name : *nodes) {
            known += (known.empty() ? "" : ", ") + name;
        }
        return Error{"job " + job + " has no complete push of node " + node + " on " +
                     client.url() +
                     (known.empty() ? std::string(" (it has no complete push at all: run "
                                                  "`causeway push` first)")
                                    : " (stored nodes: " + known + ")")};
    }
    struct stat existing {};
    if (stat(out_path.c_str(), &existing) == 0) {
        return Error{out_path + " exists already; the copy of node " + node +
                     " is written to a new file only"};
    }
    auto opened = tracedb::Database::open(out_path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    if (!opened) {
        return Error{"cannot create " + out_path + ": " + opened.error().message};
    }
    const tracedb::Database& db = *opened;
    std::string schema(tracedb::schema_sql());
    if (auto created = db.exec(schema.c_str()); !created) {
        return created;
    }
    auto tables = trace_tables();
    if (!tables) {
        return tables.error();
    }
    if (auto begun = db.exec("BEGIN"); !begun) {
        return begun;
    }
    std::string node_condition = visible_rows_condition(job) + " AND node = " + quote(node);
    for (const auto& table : *tables) {
        if (auto copied = copy_table(client, node_condition, table, db); !copied) {
            return Error{"cannot copy node " + node + " of job " + job + " from " + client.url() +
                         ": " + copied.error().message};
        }
    }
    return db.exec("COMMIT");
}

}  // namespace causeway::fleet
