#include "fleet/push.hpp"

#include <fmt/format.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <future>
#include <map>
#include <vector>

#include "analysis/diagnose/diagnosis.hpp"
#include "analysis/measure/rank_series.hpp"
#include "fleet/batch_sender.hpp"
#include "fleet/native_block.hpp"
#include "fleet/push_tables.hpp"
#include "fleet/row_binary.hpp"
#include "fleet/thread_call_summary.hpp"
#include "fleet/trace_tables.hpp"
#include "tracedb/btree_scan.hpp"
#include "tracedb/reader.hpp"
#include "tracedb/schema.hpp"

namespace causeway::fleet {
namespace {

struct Recording {
    std::string host;
    std::string push_id;
};

// FNV-1a, 64 bits: stable across builds and machines, unlike std::hash.
std::uint64_t fnv1a(std::uint64_t hash, std::string_view bytes) {
    for (unsigned char c : bytes) {
        hash = (hash ^ c) * 0x100000001b3ULL;
    }
    return hash;
}

// The recording's identity: its host, the clocks at its start and how many calls and off-CPU
// intervals it holds. The same file pushed twice has the same id; another recording of the same
// node has another.
Result<Recording> identify(const tracedb::TraceReader& trace) {
    auto row = trace.db().prepare(
        "SELECT host, start_mono_ns, start_wall_ns, (SELECT count(*) FROM cuda_call), "
        "(SELECT count(*) FROM offcpu) FROM session WHERE id = 1");
    if (!row) {
        return row.error();
    }
    if (row->step() != SQLITE_ROW) {
        return Error{trace.path() + " has no session row: it is not a finished recording"};
    }
    Recording recording{row->column_text(0), {}};
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    hash = fnv1a(hash, recording.host);
    for (int col = 1; col <= 4; ++col) {
        hash = fnv1a(hash, "\x1f" + std::to_string(row->column_int64(col)));
    }
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
    recording.push_id = hex;
    return recording;
}

std::uint64_t now_ns() {
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                          std::chrono::system_clock::now().time_since_epoch())
                                          .count());
}

struct Owner {
    std::string job;
    std::string node;
    std::string push_id;
    std::uint64_t attempt = 0;
};

void write_owner(RowBinaryWriter& out, const Owner& owner) {
    out.string(owner.job);
    out.string(owner.node);
    out.string(owner.push_id);
    out.uint64(owner.attempt);
}

// The Native columns of a pushed table's rows: the owner's (kOwnerColumns), then the table's.
constexpr std::size_t kOwnerColumnCount = 5;

std::vector<NativeColumn> native_columns(const TraceTable& table) {
    std::vector<NativeColumn> columns{{"job", NativeType::kString, false},
                                      {"node", NativeType::kString, false},
                                      {"push_id", NativeType::kString, false},
                                      {"attempt", NativeType::kUInt64, false},
                                      {"row_index", NativeType::kUInt64, false}};
    for (const TraceColumn& column : table.columns) {
        const NativeType type = column.kind == ColumnKind::kInt64     ? NativeType::kInt64
                                : column.kind == ColumnKind::kFloat64 ? NativeType::kFloat64
                                                                      : NativeType::kString;
        columns.push_back({column.name, type, !column.not_null});
    }
    return columns;
}

// Whether every column of the table holds integers: the page reader reads only those.
bool integers_only(const TraceTable& table) {
    for (const TraceColumn& column : table.columns) {
        if (column.kind != ColumnKind::kInt64) {
            return false;
        }
    }
    return true;
}

std::size_t column_index(const TraceTable& table, const std::string& name) {
    for (std::size_t col = 0; col < table.columns.size(); ++col) {
        if (table.columns[col].name == name) {
            return col;
        }
    }
    return table.columns.size();  // thread_time_ordered tables have both columns
}

std::vector<std::string> column_names(const TraceTable& table) {
    std::vector<std::string> names;
    for (const TraceColumn& column : table.columns) {
        names.push_back(column.name);
    }
    return names;
}

// Sends one trace table's rows in Native blocks of options.batch_rows (the first an eighth), read
// from its b-tree pages where the page reader can (tracedb/btree_scan.hpp: several times cheaper
// than SQLite's row by row), with SQL where it cannot, from the first row it could not read.
class TablePusher {
  public:
    TablePusher(const ClickHouseClient& client, const PushOptions& options, const Owner& owner)
        : options_(options), owner_(owner), sender_(client, options.after_batch) {}

    // `calls` (may be null) adds up the rows per thread: the table's thread_id, ts_ns and dur_ns.
    Status push(const tracedb::TraceReader& trace, const TraceTable& table,
                ThreadCallSummary* calls, std::uint64_t& rows_out) {
        table_ = &table;
        calls_ = calls;
        if (calls) {
            call_columns_ = {column_index(table, "thread_id"), column_index(table, "ts_ns"),
                             column_index(table, "dur_ns")};
        }
        block_.emplace(native_columns(table));
        block_->repeat_string(0, owner_.job);
        block_->repeat_string(1, owner_.node);
        block_->repeat_string(2, owner_.push_id);
        block_->repeat_uint64(3, owner_.attempt);
        sort_columns_.reset();
        if (table.thread_time_ordered) {
            sort_columns_ = {column_index(table, "thread_id"), column_index(table, "ts_ns")};
        }
        insert_columns_ = std::string(kOwnerColumns) + ", " + column_list(table);
        rows_ = 0;
        std::optional<std::int64_t> last_rowid;
        bool all_read = false;
        if (integers_only(table)) {
            auto scan = tracedb::BtreeTableScan::open(trace.db(), trace.path(), table.name,
                                                      column_names(table));
            if (scan) {
                block_->reserve(static_cast<std::size_t>(
                    std::min<std::int64_t>(scan->rows(), options_.batch_rows)));
                auto read = add_from_pages(*scan, last_rowid);
                if (!read) {
                    return read.error();
                }
                all_read = *read;
            }
        }
        if (!all_read) {
            if (auto read = add_with_sql(trace, last_rowid); !read) {
                return read;
            }
        }
        rows_out = rows_;
        return block_->rows() == 0 ? Status(Ok{}) : send();
    }

    // Waits until every batch is stored.
    Status finish() { return sender_.finish(); }
    std::uint64_t bytes_sent() const { return sender_.bytes_sent(); }

  private:
    // The next row's place in its table; the caller adds the table's values (the owner's are
    // the block's, repeated).
    void begin_row() { block_->uint64(4, rows_++); }
    // Ends the row; `value(col)` gives its integer in column col, for the sort key and the
    // per-thread sums.
    template <class Value>
    Status end_row(const Value& value) {
        if (calls_) {
            calls_->add(value(call_columns_[0]), value(call_columns_[1]), value(call_columns_[2]));
        }
        if (sort_columns_) {
            keys_.push_back({value(sort_columns_->first), value(sort_columns_->second),
                             static_cast<std::uint32_t>(block_->rows())});
        }
        block_->end_row();
        // A table's first batch is an eighth of the others: the server starts storing it while
        // the rest is read, instead of waiting for a whole batch to be read first.
        const std::size_t batch = rows_ == block_->rows()
                                      ? std::max<std::size_t>(options_.batch_rows / 8, 1)
                                      : options_.batch_rows;
        return block_->rows() == batch ? send() : Status(Ok{});
    }

    // The rows of the table's leaves, in rowid order, up to the first leaf the page reader
    // refuses: whether it read them all. `last_rowid` is the last row's.
    Result<bool> add_from_pages(const tracedb::BtreeTableScan& scan,
                                std::optional<std::int64_t>& last_rowid) {
        tracedb::BtreeTableScan::Buffer buffer;
        std::vector<tracedb::BtreeTableScan::Row> rows;
        const std::size_t columns = table_->columns.size();
        for (std::size_t leaf = 0; leaf < scan.leaves().size(); ++leaf) {
            if (!scan.read_leaf(leaf, buffer, rows)) {
                return false;
            }
            for (const auto& row : rows) {
                begin_row();
                for (std::size_t col = 0; col < columns; ++col) {
                    if (row.is_null(static_cast<int>(col))) {
                        block_->null(kOwnerColumnCount + col);
                    } else {
                        block_->int64(kOwnerColumnCount + col, row.columns[col]);
                    }
                }
                if (auto sent = end_row([&row](std::size_t col) { return row.columns[col]; });
                    !sent) {
                    return sent.error();
                }
                last_rowid = row.rowid;
            }
        }
        return true;
    }

    // The table's rows read with SQL: all of them, or those after `after_rowid`.
    Status add_with_sql(const tracedb::TraceReader& trace,
                        std::optional<std::int64_t> after_rowid) {
        const std::string& name = table_->name;
        auto select = trace.db().prepare("SELECT " + column_list(*table_) + " FROM " + name +
                                         (after_rowid ? " WHERE rowid > ?1" : ""));
        if (!select) {
            return Error{"cannot read table " + name + " of " + trace.path() + ": " +
                         select.error().message};
        }
        if (after_rowid) {
            select->bind(1, *after_rowid);
        }
        int step = 0;
        while ((step = select->step()) == SQLITE_ROW) {
            begin_row();
            for (std::size_t col = 0; col < table_->columns.size(); ++col) {
                add_value(*select, col);
            }
            const auto value = [&select](std::size_t col) {
                return select->column_int64(static_cast<int>(col));
            };
            if (auto sent = end_row(value); !sent) {
                return sent;
            }
        }
        if (step != SQLITE_DONE) {
            return Error{"cannot read table " + name + " of " + trace.path() + ": " +
                         trace.db().last_error()};
        }
        return Ok{};
    }

    void add_value(const tracedb::Statement& row, std::size_t col) {
        const TraceColumn& column = table_->columns[col];
        const std::size_t at = kOwnerColumnCount + col;
        const int index = static_cast<int>(col);
        if (!column.not_null && row.column_is_null(index)) {
            block_->null(at);
            return;
        }
        switch (column.kind) {
            case ColumnKind::kInt64:
                block_->int64(at, row.column_int64(index));
                break;
            case ColumnKind::kFloat64:
                block_->float64(at, row.column_double(index));
                break;
            case ColumnKind::kString:
                block_->string(at, row.column_text(index));
                break;
        }
    }

    // Sends the block; a table ordered by (thread_id, ts_ns) in ClickHouse goes in that order,
    // which the server writes without sorting it (a third of an insert's time, measured).
    Status send() {
        std::vector<std::uint32_t> order;
        if (sort_columns_) {
            std::sort(keys_.begin(), keys_.end());
            order.reserve(keys_.size());
            for (const SortKey& key : keys_) {
                order.push_back(key.row);
            }
            keys_.clear();
        }
        std::string block = sender_.spare_buffer();
        if (auto taken = block_->take(order, block); !taken) {
            return taken;
        }
        return sender_.send(clickhouse_table(table_->name), insert_columns_, std::move(block));
    }

    const PushOptions& options_;
    const Owner& owner_;
    BatchSender sender_;
    const TraceTable* table_ = nullptr;
    struct SortKey {
        std::int64_t thread_id = 0;
        std::int64_t ts_ns = 0;
        std::uint32_t row = 0;  // in the block
        auto operator<=>(const SortKey&) const = default;
    };
    std::optional<NativeBlockWriter> block_;
    // The table's thread_id and ts_ns columns, when ClickHouse orders its rows by them.
    std::optional<std::pair<std::size_t, std::size_t>> sort_columns_;
    std::vector<SortKey> keys_;  // of the block's rows
    ThreadCallSummary* calls_ = nullptr;
    std::array<std::size_t, 3> call_columns_{};  // thread_id, ts_ns, dur_ns
    std::string insert_columns_;
    std::uint64_t rows_ = 0;  // of the table, read so far
};

// WHERE the rows are the attempt's.
std::string rows_of_attempt(const Owner& owner) {
    return " WHERE job = " + quote(owner.job) + " AND node = " + quote(owner.node) +
           " AND push_id = " + quote(owner.push_id) +
           " AND attempt = " + std::to_string(owner.attempt);
}

// Rows of one trace table that an attempt sent.
struct SentTable {
    std::string name;
    std::uint64_t rows = 0;
};

// A push is done only when ClickHouse confirms what it stored: the rows of this attempt in each
// table, counted by the server, against the rows sent. A server that answered 200 and stored
// less, or nothing, leaves the attempt incomplete (and invisible).
Status confirm_stored(const ClickHouseClient& client, const Owner& owner,
                      const std::vector<SentTable>& sent) {
    std::string sql;
    const std::string of_attempt = rows_of_attempt(owner);
    for (const SentTable& table : sent) {
        sql += (sql.empty() ? "SELECT " : " UNION ALL SELECT ") + quote(table.name) +
               ", count() FROM " + clickhouse_table(table.name) + of_attempt;
    }
    auto body = client.query(sql + " FORMAT RowBinary");
    if (!body) {
        return body.error();
    }
    RowBinaryReader reader(*body, "the row counts of node " + owner.node + "'s push");
    std::map<std::string, std::uint64_t> stored;
    while (!reader.at_end()) {
        auto name = reader.string();
        auto rows = name ? reader.uint64() : Result<std::uint64_t>(name.error());
        if (!rows) {
            return rows.error();
        }
        stored[*name] = *rows;
    }
    for (const SentTable& table : sent) {
        if (stored[table.name] != table.rows) {
            return Error{fmt::format(
                "ClickHouse holds {} of the {} rows of table {} this push sent, though it "
                "accepted every batch",
                stored[table.name], table.rows, table.name)};
        }
    }
    return Ok{};
}

// The node's per-thread call summary (push_tables.hpp: node_thread), added up from the calls
// sent, which the server was confirmed to hold.
Status push_thread_summary(const ClickHouseClient& client, const ThreadCallSummary& calls,
                           const Owner& owner) {
    if (calls.threads().empty()) {
        return Ok{};
    }
    RowBinaryWriter rows;
    for (const auto& [thread_id, thread] : calls.threads()) {
        write_owner(rows, owner);
        rows.int64(thread_id);
        rows.uint64(thread.calls);
        rows.int64(thread.first_ts_ns);
        rows.int64(thread.last_end_ns);
    }
    return client.insert_row_binary(
        node_thread_table(),
        "job, node, push_id, attempt, thread_id, calls, first_ts_ns, last_end_ns", rows.bytes());
}

struct PushState {
    std::string push_id;
    bool complete = false;
};

// The node's current push (its latest attempt), if it has one.
Result<std::optional<PushState>> current_push(const ClickHouseClient& client, const Owner& owner) {
    auto body =
        client.query("SELECT argMax(push_id, version_ns), argMax(complete, version_ns) FROM " +
                     push_table() + " WHERE job = " + quote(owner.job) +
                     " AND node = " + quote(owner.node) + " GROUP BY job, node FORMAT RowBinary");
    if (!body) {
        return body.error();
    }
    RowBinaryReader reader(*body, "the push state of node " + owner.node);
    if (reader.at_end()) {
        return std::optional<PushState>();
    }
    auto push_id = reader.string();
    auto complete = push_id ? reader.uint8() : Result<std::uint8_t>(push_id.error());
    if (!complete) {
        return complete.error();
    }
    return std::optional<PushState>(PushState{*push_id, *complete != 0});
}

Status mark_push(const ClickHouseClient& client, const Owner& owner, const PushOptions& options,
                 const std::string& host, const std::string& source, bool complete,
                 std::int64_t rows) {
    RowBinaryWriter row;
    row.string(owner.job);
    row.string(owner.node);
    row.int64(options.rank);
    row.string(owner.push_id);
    row.uint64(owner.attempt);
    row.uint8(complete ? 1 : 0);
    row.uint64(owner.attempt + (complete ? 1 : 0));
    row.uint64(static_cast<std::uint64_t>(rows));
    row.string(host);
    row.string(source);
    return client.insert_row_binary(
        push_table(),
        "job, node, rank, push_id, attempt, complete, version_ns, rows_stored, host, source",
        row.bytes());
}

Status push_node_causes(const ClickHouseClient& client, const analysis::Diagnosis& diagnosis,
                        const Owner& owner, const CauseWords& words) {
    RowBinaryWriter rows;
    const char* verdict = analysis::verdict_class_name(diagnosis.verdict.verdict_class);
    auto add_row = [&](std::uint64_t index, const char* cause, const std::string& root_cause,
                       std::int64_t lost_ns, const analysis::Actor* actor,
                       const std::optional<analysis::CriticalPathCost>& cost) {
        write_owner(rows, owner);
        rows.uint64(index);
        rows.string(cause);
        rows.string(root_cause);
        rows.int64(lost_ns);
        rows.string(verdict);
        const analysis::ContainerIdentity none;
        const auto& container = actor && actor->container ? *actor->container : none;
        rows.string(actor ? analysis::cause_kind_name(actor->kind) : "");
        rows.string(actor ? actor->name : "");
        rows.string(container.runtime);
        rows.string(container.container_id);
        rows.string(container.pod_uid);
        rows.string(container.qos_class);
        rows.float64(cost ? cost->speedup : 0);
        rows.uint8(cost && cost->device_twice_as_fast ? 1 : 0);
    };
    for (std::size_t i = 0; i < diagnosis.chains.size(); ++i) {
        const auto& chain = diagnosis.chains[i];
        add_row(i, analysis::verdict_class_name(chain.root_cause_class), words.root_cause(chain),
                chain.time_lost_ns, &chain.actor, chain.critical_path);
    }
    if (diagnosis.chains.empty()) {
        // A node with no chain still says what it is (HEALTHY, INSUFFICIENT-DATA).
        add_row(0, verdict, words.verdict_summary(diagnosis), 0, nullptr, std::nullopt);
    }
    return client.insert_row_binary(
        node_cause_table(),
        "job, node, push_id, attempt, chain_index, cause, root_cause, lost_ns, verdict, "
        "actor_kind, actor, container_runtime, container_id, pod_uid, pod_qos, speedup, "
        "device_twice_as_fast",
        rows.bytes());
}

// The NCCL ranks of the node and their collectives on its wall clock, for aligning them with
// the ranks of other nodes (fleet/rank_meetings.hpp).
Status push_node_ranks(const ClickHouseClient& client, const analysis::TraceModel& model,
                       const Owner& owner) {
    const auto series = analysis::rank_series(model);
    if (series.empty()) {
        return Ok{};
    }
    RowBinaryWriter ranks;
    RowBinaryWriter collectives;
    const std::int64_t wall = model.session.start_wall_ns;
    for (const analysis::RankSeries& rank : series) {
        auto write_rank = [&](RowBinaryWriter& out) {
            write_owner(out, owner);
            out.int64(rank.communicator.first);
            out.int64(rank.communicator.second);
            out.int64(rank.rank);
        };
        write_rank(ranks);
        ranks.int64(rank.pid);
        ranks.uint64(rank.arrival_ns.size());
        ranks.string(rank.last_seen.last_call.value_or(""));
        ranks.string(rank.last_seen.stuck_at ? analysis::describe_line(*rank.last_seen.stuck_at)
                                             : "");
        for (std::size_t k = 0; k < rank.arrival_ns.size(); ++k) {
            write_rank(collectives);
            collectives.uint64(k);
            collectives.int64(wall + rank.arrival_ns[k]);
            collectives.int64(rank.left_ns[k] < 0 ? -1 : wall + rank.left_ns[k]);
        }
    }
    const std::string owner_columns = "job, node, push_id, attempt, comm_size, comm_order, rank, ";
    if (auto sent = client.insert_row_binary(
            node_rank_table(), owner_columns + "pid, collectives, last_call, stuck_at",
            ranks.bytes());
        !sent) {
        return sent;
    }
    return client.insert_row_binary(node_collective_table(),
                                    owner_columns + "number, arrival_ns, left_ns",
                                    collectives.bytes());
}

// The node's diagnosis and the model it was made from (its NCCL ranks), read from the trace on a
// connection of its own, so that it runs while the rows are sent.
struct NodeAnalysis {
    analysis::TraceModel model;
    analysis::Diagnosis diagnosis;
};

constexpr int kAnalysisNice = 10;

Result<NodeAnalysis> analyse_node(const std::string& db_path) {
    // Beneath the sending, which the push waits for first: given the same share of the CPU, the
    // diagnosis's loader delayed the first batch by half a second at 1M calls on 2 CPUs. The
    // threads it starts inherit the priority (Linux keeps one per thread).
    ::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), kAnalysisNice);
    auto trace = tracedb::TraceReader::open(db_path);
    if (!trace) {
        return trace.error();
    }
    auto model = analysis::load_trace(*trace);
    if (!model) {
        return Error{"cannot analyse " + db_path +
                     " for the fleet summary: " + model.error().message};
    }
    auto diagnosis = analysis::diagnose(*model, analysis::DiagnosisOptions{});
    return NodeAnalysis{std::move(*model), std::move(diagnosis)};
}

// What the fleet reads instead of the node's calls: its per-thread call summary, its diagnosis,
// one row per chain, and its NCCL ranks' collectives.
Status push_node_summary(const ClickHouseClient& client, const Result<NodeAnalysis>& node,
                         const ThreadCallSummary& calls, const Owner& owner,
                         const CauseWords& words) {
    if (!node) {
        return node.error();
    }
    if (auto threads = push_thread_summary(client, calls, owner); !threads) {
        return threads;
    }
    if (auto causes = push_node_causes(client, node->diagnosis, owner, words); !causes) {
        return causes;
    }
    return push_node_ranks(client, node->model, owner);
}

// Adds each column a table made by an earlier causeway lacks.
Status add_missing_columns(const ClickHouseClient& client, const std::vector<TableColumn>& added) {
    for (const TableColumn& added_column : added) {
        const AddedColumn& column = added_column.column;
        auto body = client.query(
            "SELECT count() FROM system.columns WHERE database = currentDatabase() AND table = " +
            quote(added_column.table) + " AND name = " + quote(column.name) + " FORMAT RowBinary");
        if (!body) {
            return body.error();
        }
        auto present = RowBinaryReader(*body, "the columns of " + added_column.table).uint64();
        if (!present) {
            return present.error();
        }
        if (*present == 0) {
            if (auto altered = client.query("ALTER TABLE " + added_column.table + " ADD COLUMN " +
                                            column.name + " " + column.type);
                !altered) {
                return altered.error();
            }
        }
    }
    return Ok{};
}

// Runs `creates`, then adds the columns that tables made before lack.
Status make_tables(const ClickHouseClient& client, const std::vector<std::string>& creates,
                   const std::vector<TableColumn>& added) {
    for (const auto& sql : creates) {
        if (auto done = client.query(sql); !done) {
            return done.error();
        }
    }
    return add_missing_columns(client, added);
}

}  // namespace

Status create_tables(const ClickHouseClient& client, const std::string& cluster, bool local_only) {
    auto statements = schema_statements(cluster);
    if (!statements) {
        return statements.error();
    }
    if (auto made = make_tables(client, statements->local, statements->local_added);
        !made || local_only) {
        return made;
    }
    return make_tables(client, statements->distributed, statements->distributed_added);
}

Result<PushSummary> push_trace(const ClickHouseClient& client, const std::string& db_path,
                               const PushOptions& options) {
    if (!options.words.root_cause || !options.words.verdict_summary) {
        return Error{
            "push_trace needs the words of the cause rows (PushOptions::words): pass the "
            "report layer's, as `causeway push` does"};
    }
    auto trace = tracedb::TraceReader::open(db_path);
    if (!trace) {
        return trace.error();
    }
    if (trace->schema_version() != tracedb::kSchemaVersion) {
        return Error{db_path + " is a version " + std::to_string(trace->schema_version()) +
                     " trace; push sends version " + std::to_string(tracedb::kSchemaVersion) +
                     " tables only. Record it again with this collector to push it"};
    }
    auto recording = identify(*trace);
    if (!recording) {
        return recording.error();
    }
    Owner owner{options.job, options.node.empty() ? recording->host : options.node,
                recording->push_id, now_ns()};
    PushSummary summary;
    summary.node = owner.node;
    summary.push_id = owner.push_id;
    summary.attempt = owner.attempt;
    auto current = current_push(client, owner);
    if (!current) {
        return current.error();
    }
    if (*current && (*current)->push_id == owner.push_id && (*current)->complete) {
        summary.already_pushed = true;
        return summary;
    }
    if (auto marked = mark_push(client, owner, options, recording->host, db_path, false, 0);
        !marked) {
        return marked.error();
    }
    auto tables = trace_tables();
    if (!tables) {
        return tables.error();
    }
    // One read transaction for every table: its SHARED lock keeps a writer from changing the
    // pages the page reader reads (in a rollback-journal file), and the tables are of one moment.
    if (auto begun = trace->db().exec("BEGIN"); !begun) {
        return Error{"cannot read " + db_path + ": " + begun.error().message};
    }
    const std::uint64_t wire_before = client.insert_bytes_sent();
    auto node_analysis = std::async(std::launch::async, analyse_node, db_path);
    TablePusher pusher(client, options, owner);
    const auto incomplete = [&owner](const Error& error) {
        return Error{error.message + " (the push of node " + owner.node +
                     " stays incomplete and invisible; run the same push again to finish it)"};
    };
    std::vector<SentTable> sent;
    ThreadCallSummary calls;
    for (const auto& table : *tables) {
        std::uint64_t rows = 0;
        if (auto pushed =
                pusher.push(*trace, table, table.name == "cuda_call" ? &calls : nullptr, rows);
            !pushed) {
            return incomplete(pushed.error());
        }
        sent.push_back({table.name, rows});
        summary.rows += static_cast<std::int64_t>(rows);
        if (table.name == "cuda_call") {
            summary.cuda_calls = static_cast<std::int64_t>(rows);
        }
    }
    if (auto stored = pusher.finish(); !stored) {
        return incomplete(stored.error());
    }
    summary.bytes_sent = static_cast<std::int64_t>(pusher.bytes_sent());
    summary.wire_bytes = static_cast<std::int64_t>(client.insert_bytes_sent() - wire_before);
    if (auto confirmed = confirm_stored(client, owner, sent); !confirmed) {
        return incomplete(confirmed.error());
    }
    if (auto summary_pushed =
            push_node_summary(client, node_analysis.get(), calls, owner, options.words);
        !summary_pushed) {
        return summary_pushed.error();
    }
    if (auto marked =
            mark_push(client, owner, options, recording->host, db_path, true, summary.rows);
        !marked) {
        return marked.error();
    }
    return summary;
}

}  // namespace causeway::fleet
