#include "interop/ingero_import.hpp"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "interop/event_counts.hpp"
#include "interop/import_limits.hpp"
#include "interop/ingero_identity.hpp"
#include "interop/ingero_ops.hpp"
#include "interop/ingero_scope.hpp"
#include "interop/ingero_source.hpp"
#include "interop/ingero_stacks.hpp"
#include "tracedb/writer.hpp"

namespace causeway::interop {
namespace {

using tracedb::Statement;
using tracedb::TraceWriter;

constexpr std::int64_t kBytesPerMegabyte = 1 << 20;
// offcpu.cpu when the source did not record the CPU (as perf writes an unknown CPU).
constexpr std::int64_t kUnknownCpu = -1;

// The session's time axis: Ingero stores Unix-epoch ns; the trace counts from `zero`.
struct TimeAxis {
    std::int64_t zero_ns = 0;  // earliest session start, event or snapshot (Unix epoch ns)
    std::int64_t end_ns = 0;   // latest session stop or event end (Unix epoch ns)

    std::int64_t rel(std::int64_t unix_ns) const { return unix_ns - zero_ns; }
    std::optional<std::int64_t> rel(const std::optional<std::int64_t>& unix_ns) const {
        return unix_ns ? std::optional(std::max<std::int64_t>(rel(*unix_ns), 0)) : std::nullopt;
    }
};

class IngeroImporter {
  public:
    IngeroImporter(const IngeroSource& source, const IngeroScope& scope)
        : source_(source), scope_(scope) {}

    Result<ImportSummary> run(const std::string& out_path);

  private:
    Result<Statement> prepare(const std::string& sql) const;
    Status load_catalog();
    Status compute_time_axis();
    tracedb::SessionRecord session_record() const;
    Result<std::int64_t> write_process(const TaskKey& key, std::set<TaskKey>& visiting);
    Status write_tasks();
    Status write_snapshots();
    Status write_events();
    Status write_cuda_call(const IngeroOpInfo& op, const TaskKey& tid, std::int64_t ts,
                           std::int64_t dur, std::int64_t arg0, std::int64_t arg1, std::int64_t ret,
                           std::int64_t stack_hash);
    Status write_offcpu(const TaskKey& tid, std::int64_t switch_in_ns, std::int64_t dur);
    Result<std::optional<std::int64_t>> stack_for(std::int64_t process_id, std::int64_t hash);
    Status read_aggregates();
    Status write_counts();
    Status write_meta();

    const IngeroSource& source_;
    const IngeroScope& scope_;
    std::vector<IngeroSession> sessions_;
    std::optional<IngeroOpTable> ops_;
    std::optional<IngeroIdentity> identity_;
    std::optional<TraceWriter> writer_;
    TimeAxis axis_;

    std::map<TaskKey, std::int64_t> process_ids_, thread_ids_;  // Ingero id -> minted id
    std::map<TaskKey, std::int64_t> last_wakeup_ns_;            // tid -> latest wakeup (Unix ns)
    std::map<std::pair<std::int64_t, std::int64_t>, std::optional<std::int64_t>> stacks_;
    std::optional<Statement> stack_lookup_;
    EventCounts counts_;
    ImportFacts facts_;
    ImportSummary summary_;
};

Result<Statement> IngeroImporter::prepare(const std::string& sql) const {
    auto stmt = source_.db().prepare(sql);
    if (!stmt) {
        return Error{"cannot read " + source_.path() + ": " + stmt.error().message};
    }
    scope_.bind(*stmt);
    return stmt;
}

Status IngeroImporter::load_catalog() {
    auto sessions = source_.sessions(scope_.node);
    if (!sessions) {
        return sessions.error();
    }
    sessions_ = std::move(sessions.value());
    auto ops = IngeroOpTable::load(source_);
    if (!ops) {
        return ops.error();
    }
    ops_ = std::move(ops.value());
    auto identity = IngeroIdentity::resolve(source_, *ops_, scope_, sessions_);
    if (!identity) {
        return identity.error();
    }
    identity_ = std::move(identity.value());
    facts_.sessions = static_cast<std::int64_t>(sessions_.size());
    facts_.unproven_processes = identity_->unproven_processes();
    facts_.wal_unread = source_.wal_unread();
    return Ok{};
}

Status IngeroImporter::compute_time_axis() {
    auto range = prepare(
        "SELECT min(timestamp), max(timestamp + duration), count(*) FROM events "
        "WHERE " +
        scope_.events_filter());
    if (!range) {
        return range.error();
    }
    range->step();
    std::int64_t zero = std::numeric_limits<std::int64_t>::max();
    std::int64_t end = 0;
    if (range->column_int64(2) > 0) {
        zero = range->column_int64(0);
        end = range->column_int64(1);
    }
    for (const auto& session : sessions_) {
        if (session.started_at_ns > 0) {
            zero = std::min(zero, session.started_at_ns);
        }
        end = std::max(end, session.stopped_at_ns);
    }
    if (zero == std::numeric_limits<std::int64_t>::max()) {
        return Error{source_.path() + " holds no events and no sessions" +
                     (scope_.node ? " for node " + *scope_.node : std::string()) +
                     ": there is nothing to import"};
    }
    axis_ = {zero, std::max(end, zero)};
    return Ok{};
}

tracedb::SessionRecord IngeroImporter::session_record() const {
    tracedb::SessionRecord record;
    record.source = "import:ingero";
    record.collector_version = "ingero " + source_.version();
    record.host = "unknown (Ingero does not record the host name)";
    record.kernel = "unknown";
    record.offcpu_floor_ns = 0;  // Ingero decides what to store by its own rules, not a floor
    record.page_bucket_ns = EventCounts::kBucketNs;
    record.start_mono_ns = 0;  // no monotonic clock in the source: the axis is wall-clock
    record.start_wall_ns = axis_.zero_ns;
    std::set<std::string> nodes, filters;
    for (const auto& s : sessions_) {
        if (!s.node.empty()) {
            nodes.insert(s.node);
        }
        if (!s.pid_filter.empty()) {
            filters.insert(s.pid_filter);
        }
    }
    if (!sessions_.empty()) {
        const auto& first = sessions_.front();
        record.kernel = first.kernel.empty() ? "unknown" : first.kernel;
        record.cpu_count = first.cpu_cores;
        if (!first.cpu_model.empty()) {
            record.cpu_model = first.cpu_model;
        }
        if (first.mem_total_mb > 0) {
            record.mem_total_bytes = first.mem_total_mb * kBytesPerMegabyte;
        }
        if (!first.gpu_model.empty()) {
            record.gpu = first.gpu_model;
        }
        if (!first.ingero_version.empty()) {
            record.collector_version = "ingero " + first.ingero_version;
        }
        record.collector_flags = first.flags;
    }
    if (!nodes.empty()) {
        record.host.clear();
        for (const auto& node : nodes) {
            record.host += (record.host.empty() ? "" : ",") + node;
        }
    }
    if (!filters.empty()) {
        std::string pids;
        for (const auto& filter : filters) {
            pids += (pids.empty() ? "" : ",") + filter;
        }
        std::replace(pids.begin(), pids.end(), ',', ' ');
        record.command_line = "pid " + pids;
    }
    return record;
}

// Parents first, so that parent_id can name them; a cycle (pid reuse) just drops the link.
Result<std::int64_t> IngeroImporter::write_process(const TaskKey& key,
                                                   std::set<TaskKey>& visiting) {
    if (auto it = process_ids_.find(key); it != process_ids_.end()) {
        return it->second;
    }
    const auto& process = identity_->processes().at(key);
    tracedb::ProcessRecord record{.pid = key.id,
                                  .comm = process.comm,
                                  .in_tree = process.in_tree,
                                  .start_ns = axis_.rel(process.fork_ns),
                                  .exec_ns = axis_.rel(process.exec_ns),
                                  .exit_ns = axis_.rel(process.exit_ns)};
    visiting.insert(key);
    if (process.parent) {
        record.ppid = process.parent->id;
        if (identity_->processes().count(*process.parent) && !visiting.count(*process.parent)) {
            auto parent_id = write_process(*process.parent, visiting);
            if (!parent_id) {
                return parent_id;
            }
            record.parent_id = *parent_id;
        }
    }
    auto id = writer_->add_process(record);
    if (!id) {
        return id;
    }
    process_ids_[key] = *id;
    ++summary_.processes;
    return id;
}

Status IngeroImporter::write_tasks() {
    for (const auto& [key, process] : identity_->processes()) {
        std::set<TaskKey> visiting;
        if (auto id = write_process(key, visiting); !id) {
            return id.error();
        }
    }
    for (const auto& [key, thread] : identity_->threads()) {
        auto id = writer_->add_thread({.tid = key.id,
                                       .process_id = process_ids_.at(thread.process),
                                       .comm = thread.comm,
                                       .start_ns = axis_.rel(thread.fork_ns),
                                       .exit_ns = axis_.rel(thread.exit_ns)});
        if (!id) {
            return id.error();
        }
        thread_ids_[key] = *id;
        ++summary_.threads;
    }
    return Ok{};
}

Status IngeroImporter::write_snapshots() {
    if (!source_.has_table("system_snapshots")) {
        return Ok{};
    }
    std::string sql =
        "SELECT timestamp, cpu_pct, mem_pct, mem_avail, load_avg FROM system_snapshots "
        "WHERE timestamp BETWEEN ? AND ? ORDER BY timestamp";
    auto stmt = source_.db().prepare(sql);
    if (!stmt) {
        return Error{"cannot read the system snapshots of " + source_.path() + ": " +
                     stmt.error().message};
    }
    // One node's snapshots are those inside its sessions (the table has no node column).
    std::int64_t from = axis_.zero_ns, to = axis_.end_ns;
    if (!scope_.node) {
        from = std::numeric_limits<std::int64_t>::min();
        to = std::numeric_limits<std::int64_t>::max();
    }
    stmt->bind(1, from);
    stmt->bind(2, to);
    const std::int64_t session_mem_mb = sessions_.empty() ? 0 : sessions_.front().mem_total_mb;
    while (stmt->step() == SQLITE_ROW) {
        double mem_used_pct = stmt->column_double(2);
        std::int64_t available = stmt->column_int64(3) * kBytesPerMegabyte;
        std::int64_t total = session_mem_mb * kBytesPerMegabyte;
        if (total == 0 && mem_used_pct < 100.0) {
            total = static_cast<std::int64_t>(static_cast<double>(available) /
                                              (1.0 - mem_used_pct / 100.0));
        }
        std::int64_t ts = std::max<std::int64_t>(axis_.rel(stmt->column_int64(0)), 0);
        if (auto status = writer_->add_snapshot({.ts_ns = ts,
                                                 .cpu_busy_pct = stmt->column_double(1),
                                                 .mem_total_bytes = total,
                                                 .mem_available_bytes = available,
                                                 .load1 = stmt->column_double(4)});
            !status) {
            return status;
        }
        ++summary_.snapshots;
    }
    facts_.snapshots = summary_.snapshots;
    return Ok{};
}

Result<std::optional<std::int64_t>> IngeroImporter::stack_for(std::int64_t process_id,
                                                              std::int64_t hash) {
    auto cached = stacks_.find({process_id, hash});
    if (cached != stacks_.end()) {
        return cached->second;
    }
    std::optional<std::int64_t> stack_id;
    if (stack_lookup_) {
        stack_lookup_->bind(1, hash);
        if (stack_lookup_->step() == SQLITE_ROW) {
            auto frames =
                parse_ingero_stack(stack_lookup_->column_text(0), stack_lookup_->column_text(1));
            if (frames && !frames->empty()) {
                auto id = writer_->add_stack(process_id, *frames);
                if (!id) {
                    stack_lookup_->reset();
                    return id.error();
                }
                stack_id = *id;
                ++summary_.stacks;
            }
        }
        stack_lookup_->reset();
    }
    stacks_[{process_id, hash}] = stack_id;
    return stack_id;
}

Status IngeroImporter::write_cuda_call(const IngeroOpInfo& op, const TaskKey& tid, std::int64_t ts,
                                       std::int64_t dur, std::int64_t arg0, std::int64_t arg1,
                                       std::int64_t ret, std::int64_t stack_hash) {
    const std::int64_t thread_id = thread_ids_.at(tid);
    std::optional<std::int64_t> stack_id;
    if (stack_hash != 0) {
        auto stack = stack_for(process_ids_.at(identity_->threads().at(tid).process), stack_hash);
        if (!stack) {
            return stack.error();
        }
        stack_id = *stack;
        facts_.stacks_unresolved += stack_id ? 0 : 1;
    }
    tracedb::CudaCallRecord call{.thread_id = thread_id,
                                 .op_id = op.cuda_op_id,
                                 .ts_ns = axis_.rel(ts),
                                 .dur_ns = dur,
                                 .ret = ret,
                                 .stack_id = stack_id};
    if (op.arg0_is_bytes) {
        call.bytes = arg0;
    }
    if (op.arg1_is_copy_kind) {
        call.copy_kind = arg1;
    }
    ++summary_.cuda_calls;
    return writer_->add_cuda_call(call);
}

// Ingero emits sched_switch when a traced thread gets a CPU back, with the time it was off.
Status IngeroImporter::write_offcpu(const TaskKey& tid, std::int64_t switch_in_ns,
                                    std::int64_t dur) {
    std::int64_t switch_out_ns = switch_in_ns - dur;
    tracedb::OffCpuRecord interval{.thread_id = thread_ids_.at(tid),
                                   .ts_ns = axis_.rel(switch_out_ns),
                                   .dur_ns = dur,
                                   .reason = tracedb::OffCpuReason::kBlocked,
                                   .cpu = kUnknownCpu};
    // A blocked thread needs a wakeup to run again; a preempted one is never woken.
    auto wakeup = last_wakeup_ns_.find(tid);
    if (wakeup != last_wakeup_ns_.end() && wakeup->second >= switch_out_ns &&
        wakeup->second <= switch_in_ns) {
        interval.runq_wait_ns = switch_in_ns - wakeup->second;
        ++facts_.offcpu_blocked_by_wakeup;
    }
    if (interval.ts_ns < 0) {
        interval.dur_ns += interval.ts_ns;
        interval.ts_ns = 0;
        interval.runq_wait_ns = std::min(interval.runq_wait_ns, interval.dur_ns);
        ++facts_.offcpu_clipped_at_start;
    }
    ++summary_.offcpu_intervals;
    return writer_->add_offcpu(interval);
}

Status IngeroImporter::write_events() {
    if (source_.has_table("stack_traces")) {
        std::string frames = source_.has_column("stack_traces", "frames") ? "frames" : "''";
        std::string ips = source_.has_column("stack_traces", "ips") ? "ips" : "''";
        auto lookup = source_.db().prepare("SELECT " + frames + ", " + ips +
                                           " FROM stack_traces WHERE hash = ?");
        if (!lookup) {
            return lookup.error();
        }
        stack_lookup_ = std::move(lookup.value());
    }
    std::string stack_hash = source_.has_column("events", "stack_hash") ? "stack_hash" : "0";
    auto events =
        prepare("SELECT " + scope_.node_expr() +
                ", timestamp, pid, tid, source, op, duration, arg0, arg1, ret_code, " + stack_hash +
                " FROM events WHERE " + scope_.events_filter() + " ORDER BY timestamp");
    if (!events) {
        return events.error();
    }
    int rc;
    while ((rc = events->step()) == SQLITE_ROW) {
        const std::string node = events->column_text(0);
        const std::int64_t ts = events->column_int64(1);
        const TaskKey pid{node, events->column_int64(2)};
        const TaskKey tid{node, events->column_int64(3)};
        const IngeroOpInfo& op = ops_->classify(events->column_int64(4), events->column_int64(5));
        const std::int64_t dur = events->column_int64(6);
        const std::int64_t arg0 = events->column_int64(7);
        const std::int64_t arg1 = events->column_int64(8);
        ++summary_.events_read;

        std::optional<TaskKey> process;
        if (tid.id != 0) {
            process = identity_->threads().at(tid).process;
        } else if (pid.id != 0) {
            process = identity_->process_of(pid);
        }
        bool recorded = false;
        Status status = Ok{};
        switch (op.kind) {
            case IngeroEventKind::kCudaCall:
                recorded = tid.id != 0;
                if (recorded) {
                    status = write_cuda_call(op, tid, ts, dur, arg0, arg1, events->column_int64(9),
                                             events->column_int64(10));
                }
                break;
            case IngeroEventKind::kSchedSwitch:
                recorded = process && identity_->processes().at(*process).in_tree;
                if (recorded) {
                    status = write_offcpu(tid, ts, dur);
                }
                break;
            case IngeroEventKind::kSchedWakeup:
                last_wakeup_ns_[{node, arg1}] = ts;
                break;
            case IngeroEventKind::kProcessFork:
            case IngeroEventKind::kProcessExit:
            case IngeroEventKind::kProcessExec:
                recorded = true;  // in the process and thread rows
                break;
            case IngeroEventKind::kPageAlloc:
            case IngeroEventKind::kCountOnly:
                break;
        }
        if (!status) {
            return status;
        }
        counts_.add_event(ts, process, op, dur, arg0, recorded);
    }
    if (rc != SQLITE_DONE) {
        return Error{"cannot read the events of " + source_.path() + ": " +
                     source_.db().last_error()};
    }
    facts_.cuda_calls = summary_.cuda_calls;
    facts_.offcpu_intervals = summary_.offcpu_intervals;
    return Ok{};
}

Status IngeroImporter::read_aggregates() {
    if (!source_.has_table("event_aggregates")) {
        return Ok{};
    }
    auto rows = source_.db().prepare(
        "SELECT bucket, source, op, pid, count, stored, sum_dur, max_dur, sum_arg0 "
        "FROM event_aggregates ORDER BY bucket");
    if (!rows) {
        return Error{"cannot read event_aggregates of " + source_.path() + ": " +
                     rows.error().message};
    }
    auto nodes = source_.nodes();
    if (!nodes) {
        return nodes.error();
    }
    facts_.aggregates_skipped = scope_.node && !identity_->aggregates_attributable();
    facts_.aggregates_unattributed = !identity_->aggregates_attributable();
    while (rows->step() == SQLITE_ROW) {
        ++facts_.aggregate_rows;
        if (facts_.aggregates_skipped) {
            continue;
        }
        counts_.add_aggregate(rows->column_int64(0),
                              identity_->aggregate_process(rows->column_int64(3)),
                              ops_->classify(rows->column_int64(1), rows->column_int64(2)),
                              rows->column_int64(4), rows->column_int64(5), rows->column_int64(6),
                              rows->column_int64(7), rows->column_int64(8));
    }
    return Ok{};
}

Status IngeroImporter::write_counts() {
    Status status = Ok{};
    counts_.for_each([&](const CountKey& key, const MergedCount& merged) {
        if (!status || (!merged.from_aggregate && merged.count == merged.records)) {
            return;
        }
        // Ingero's minutes are wall-clock minutes: the first may begin before the trace.
        const std::int64_t start = std::max<std::int64_t>(axis_.rel(key.bucket_ns), 0);
        const std::int64_t end = axis_.rel(key.bucket_ns + EventCounts::kBucketNs);
        std::optional<std::int64_t> process_id;
        if (auto it = key.process ? process_ids_.find(*key.process) : process_ids_.end();
            it != process_ids_.end()) {
            process_id = it->second;
        }
        status = writer_->add_event_count({.process_id = process_id,
                                           .bucket_ns = start,
                                           .bucket_dur_ns = std::max<std::int64_t>(end - start, 0),
                                           .event = key.event,
                                           .count = merged.count,
                                           .stored = merged.records,
                                           .total_dur_ns = merged.total_dur_ns,
                                           .max_dur_ns = merged.max_dur_ns});
        ++summary_.event_count_rows;
        if (status && process_id && key.event == "mm_page_alloc") {
            status = writer_->add_page_alloc({.process_id = *process_id,
                                              .bucket_ns = start,
                                              .count = merged.count,
                                              .bytes = merged.arg0_sum});
            ++summary_.page_alloc_rows;
        }
    });
    facts_.totals = counts_.totals();
    facts_.aggregate_disagreements = counts_.disagreements();
    return status;
}

// Ingero's own conclusions travel with the trace, to compare diagnoses on the same data.
Status IngeroImporter::write_meta() {
    nlohmann::json chains = nlohmann::json::array();
    if (source_.has_table("causal_chains")) {
        bool by_node = scope_.node && source_.has_column("causal_chains", "node");
        auto rows = source_.db().prepare(
            "SELECT id, severity, summary, root_cause, explanation, recommendations, cuda_op, "
            "cuda_p99_us, cuda_p50_us, tail_ratio FROM causal_chains" +
            std::string(by_node ? " WHERE node = ?" : "") + " ORDER BY detected_at");
        if (!rows) {
            return rows.error();
        }
        if (by_node) {
            rows->bind(1, *scope_.node);
        }
        while (rows->step() == SQLITE_ROW) {
            auto recommendations = nlohmann::json::parse(rows->column_text(5), nullptr, false);
            chains.push_back({{"id", rows->column_text(0)},
                              {"severity", rows->column_text(1)},
                              {"summary", rows->column_text(2)},
                              {"root_cause", rows->column_text(3)},
                              {"explanation", rows->column_text(4)},
                              {"recommendations", recommendations.is_discarded()
                                                      ? nlohmann::json(rows->column_text(5))
                                                      : recommendations},
                              {"cuda_op", rows->column_text(6)},
                              {"cuda_p99_us", rows->column_int64(7)},
                              {"cuda_p50_us", rows->column_int64(8)},
                              {"tail_ratio", rows->column_double(9)}});
        }
    }
    summary_.ingero_chains = static_cast<std::int64_t>(chains.size());
    const std::pair<std::string, std::string> entries[] = {
        {"created_by", "causeway import --from ingero"},
        {"import.source_path", source_.path()},
        {"import.source_format", "ingero " + source_.version()},
        {"import.node", scope_.node.value_or("")},
        {"ingero.causal_chains",
         chains.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)},
    };
    for (const auto& [key, value] : entries) {
        if (auto status = writer_->set_meta(key, value); !status) {
            return status;
        }
    }
    return Ok{};
}

Result<ImportSummary> IngeroImporter::run(const std::string& out_path) {
    summary_.ingero_version = source_.version();
    if (auto status = load_catalog(); !status) {
        return status.error();
    }
    if (auto status = compute_time_axis(); !status) {
        return status.error();
    }
    auto writer = TraceWriter::create(out_path, session_record());
    if (!writer) {
        return writer.error();
    }
    writer_ = std::move(writer.value());
    // The schema lists Causeway's own ops; the Ingero ops it lacks go in before the calls.
    for (const auto& op : ops_->imported_cuda_ops()) {
        if (auto status = writer_->add_cuda_op(op); !status) {
            return status.error();
        }
    }
    for (auto step : {&IngeroImporter::write_tasks, &IngeroImporter::write_snapshots,
                      &IngeroImporter::write_events, &IngeroImporter::read_aggregates,
                      &IngeroImporter::write_counts, &IngeroImporter::write_meta}) {
        if (auto status = (this->*step)(); !status) {
            return status.error();
        }
    }
    auto nodes = source_.nodes();
    if (!nodes) {
        return nodes.error();
    }
    if (!scope_.node) {
        facts_.merged_nodes = *nodes;
    }
    summary_.limits = describe_import_limits(facts_);
    for (const auto& row : summary_.limits) {
        if (auto status = writer_->put_data_quality(row); !status) {
            return status.error();
        }
    }
    if (auto status = writer_->finish(axis_.rel(axis_.end_ns)); !status) {
        return status.error();
    }
    return summary_;
}

void remove_partial_output(const std::string& path) {
    std::error_code ignored;
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
        std::filesystem::remove(path + suffix, ignored);
    }
}

}  // namespace

Result<ImportSummary> import_ingero(const std::string& in_path, const std::string& out_path,
                                    const IngeroImportOptions& options) {
    auto source = IngeroSource::open(in_path);
    if (!source) {
        return source.error();
    }
    IngeroScope scope{.has_node_column = source->has_column("events", "node"),
                      .node = options.node};
    if (options.node) {
        auto nodes = source->nodes();
        if (!nodes) {
            return nodes.error();
        }
        if (std::find(nodes->begin(), nodes->end(), *options.node) == nodes->end()) {
            std::string listed;
            for (const auto& node : *nodes) {
                listed += (listed.empty() ? "" : ", ") + node;
            }
            return Error{"--node " + *options.node + ": " + in_path +
                         (nodes->empty() ? " is a single-node recording; leave --node out"
                                         : " has no such node (it has: " + listed + ")")};
        }
    }
    const bool out_existed = std::filesystem::exists(out_path);
    IngeroImporter importer(*source, scope);
    auto summary = importer.run(out_path);
    if (!summary && !out_existed) {
        remove_partial_output(out_path);
    }
    return summary;
}

}  // namespace causeway::interop
