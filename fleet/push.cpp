#include "fleet/push.hpp"

#include <fmt/format.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <future>
#include <map>
#include <vector>

#include "analysis/diagnose/diagnosis.hpp"
#include "analysis/measure/rank_series.hpp"
#include "fleet/push_tables.hpp"
#include "fleet/row_binary.hpp"
#include "fleet/table_pusher.hpp"
#include "fleet/thread_call_summary.hpp"
#include "fleet/trace_tables.hpp"
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

void write_owner(RowBinaryWriter& out, const RowOwner& owner) {
    out.string(owner.job);
    out.string(owner.node);
    out.string(owner.push_id);
    out.uint64(owner.attempt);
}

// WHERE the rows are the attempt's.
std::string rows_of_attempt(const RowOwner& owner) {
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
Status confirm_stored(const ClickHouseClient& client, const RowOwner& owner,
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
                           const RowOwner& owner) {
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
Result<std::optional<PushState>> current_push(const ClickHouseClient& client,
                                              const RowOwner& owner) {
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

Status mark_push(const ClickHouseClient& client, const RowOwner& owner, const PushOptions& options,
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
                        const RowOwner& owner, const CauseWords& words) {
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
                       const RowOwner& owner) {
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
                         const ThreadCallSummary& calls, const RowOwner& owner,
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
    RowOwner owner{options.job, options.node.empty() ? recording->host : options.node,
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
    // The calls last: the server stores the other tables (an INSERT each, about 15 ms however few
    // their rows) while the calls are read, instead of after the calls' last batch.
    std::stable_partition(tables->begin(), tables->end(),
                          [](const TraceTable& table) { return !table.cuda_calls; });
    // One read transaction for every table: its SHARED lock keeps a writer from changing the
    // pages the page reader reads (in a rollback-journal file), and the tables are of one moment.
    if (auto begun = trace->db().exec("BEGIN"); !begun) {
        return Error{"cannot read " + db_path + ": " + begun.error().message};
    }
    const std::uint64_t wire_before = client.insert_bytes_sent();
    auto node_analysis = std::async(std::launch::async, analyse_node, db_path);
    TablePusher pusher(client, options.batch_rows, options.after_batch, owner);
    const auto incomplete = [&owner](const Error& error) {
        return Error{error.message + " (the push of node " + owner.node +
                     " stays incomplete and invisible; run the same push again to finish it)"};
    };
    std::vector<SentTable> sent;
    ThreadCallSummary calls;
    for (const auto& table : *tables) {
        std::uint64_t rows = 0;
        if (auto pushed = pusher.push(*trace, table, table.cuda_calls ? &calls : nullptr, rows);
            !pushed) {
            return incomplete(pushed.error());
        }
        sent.push_back({table.name, rows});
        summary.rows += static_cast<std::int64_t>(rows);
        if (table.cuda_calls) {
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
