#include "analysis/model/trace_model.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <functional>
#include <future>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <optional>
#include <unordered_map>
#include <utility>

#include "analysis/model/call_enclosure.hpp"
#include "analysis/model/call_loader.hpp"
#include "analysis/model/freed_heap.hpp"
#include "analysis/model/gil_holders.hpp"
#include "analysis/model/load_findings.hpp"
#include "analysis/model/plausible_values.hpp"
#include "analysis/model/python_stacks_loader.hpp"
#include "analysis/model/text_caps.hpp"
#include "tracedb/btree_scan.hpp"

namespace causeway::analysis {
namespace {

using tracedb::Database;
using tracedb::Statement;

// Maps minted DB ids to dense vector indices.
using IdIndex = std::unordered_map<std::int64_t, int>;

int lookup(const IdIndex& index, std::int64_t id) {
    auto it = index.find(id);
    return it == index.end() ? -1 : it->second;
}

Result<Statement> query(const Database& db, const char* sql) {
    auto stmt = db.prepare(sql);
    if (!stmt) {
        return Error{"cannot read the trace: " + stmt.error().message};
    }
    return stmt;
}

Status step_error(const Database& db, const char* table) {
    return Error{std::string("cannot read table ") + table + ": " + db.last_error()};
}

// Runs `sql` over `table` and hands each row to `on_row`: the one loop every loader shares.
template <class OnRow>
Status for_each_row(const Database& db, const char* table, const char* sql, OnRow on_row) {
    auto stmt = query(db, sql);
    if (!stmt) {
        return stmt.error();
    }
    int rc;
    while ((rc = stmt->step()) == SQLITE_ROW) {
        on_row(static_cast<const Statement&>(*stmt));
    }
    return rc == SQLITE_DONE ? Status{Ok{}} : step_error(db, table);
}

// cuda_op.category as stored, both ways; anything else reads as kOther.
constexpr std::pair<OpCategory, const char*> kCategoryNames[] = {
    {OpCategory::kCopy, "copy"},   {OpCategory::kKernel, "kernel"}, {OpCategory::kSync, "sync"},
    {OpCategory::kAlloc, "alloc"}, {OpCategory::kFree, "free"},     {OpCategory::kStream, "stream"},
    {OpCategory::kEvent, "event"}, {OpCategory::kOther, "other"},
};

constexpr std::pair<OpApi, const char*> kApiNames[] = {
    {OpApi::kRuntime, "runtime"}, {OpApi::kDriver, "driver"}, {OpApi::kNccl, "nccl"}};

// cuda_op.api as stored; anything else (an importer's) reads as the runtime's.
OpApi parse_api(const std::string& text) {
    for (const auto& [api, name] : kApiNames) {
        if (text == name) {
            return api;
        }
    }
    return OpApi::kRuntime;
}

OpCategory parse_category(const std::string& text) {
    for (const auto& [category, name] : kCategoryNames) {
        if (text == name) {
            return category;
        }
    }
    return OpCategory::kOther;
}

// Columns that a schema version added are read as NULL from older files.
Status load_session(const Database& db, std::int64_t schema_version, SessionInfo& out) {
    const std::string sql =
        std::string(
            "SELECT host, kernel, cpu_count, cpu_model, gpu, command_line, "
            "collector_version, source, offcpu_floor_ns, page_bucket_ns, start_wall_ns, "
            "stop_ns, ") +
        (schema_version >= 2 ? "machine, " : "NULL, ") +
        (schema_version >= 6 ? "gpu_link_mts, gpu_link_width" : "NULL, NULL") +
        " FROM session WHERE id = 1";
    auto stmt = query(db, sql.c_str());
    if (!stmt) {
        return stmt.error();
    }
    if (stmt->step() != SQLITE_ROW) {
        return Error{"the trace has no session row: it was not completely created. Re-record it."};
    }
    out.host = column_capped(*stmt, 0, kNameBytes);
    out.kernel = column_capped(*stmt, 1, kNameBytes);
    out.cpu_count = stmt->column_int64(2);
    out.cpu_model = optional_column_capped(*stmt, 3, kNameBytes);
    out.gpu = optional_column_capped(*stmt, 4, kNameBytes);
    out.command_line = optional_column_capped(*stmt, 5, kTextBytes);
    out.collector_version = column_capped(*stmt, 6, kNameBytes);
    out.source = column_capped(*stmt, 7, kNameBytes);
    out.offcpu_floor_ns = stmt->column_int64(8);
    out.page_bucket_ns = stmt->column_int64(9);
    out.start_wall_ns = stmt->column_int64(10);
    out.stop_ns = stmt->column_optional_int64(11);
    out.machine = optional_column_capped(*stmt, 12, kNameBytes);
    out.gpu_link = pcie_link(stmt->column_optional_int64(13), stmt->column_optional_int64(14));
    return Ok{};
}

// A session row with an impossible stop time or CPU count: the value is dropped (the end of the
// trace then comes from its last event; the CPU count reads as unknown, 0) and reported.
std::vector<DataQualityItem> check_session(SessionInfo& session) {
    std::vector<DataQualityItem> findings;
    if (session.stop_ns && !PlausibleValues::possible_stop(*session.stop_ns)) {
        findings.push_back(
            analysis_finding(tracedb::DataQualityCounter::kImpossibleStopTime, 1,
                             "the session's stop_ns " + std::to_string(*session.stop_ns) +
                                 " is not 0 .. 366 days after its start: the end of the trace is "
                                 "taken from its last event instead"));
        session.stop_ns.reset();
    }
    constexpr std::int64_t kMostCpus = 1 << 20;
    if (session.cpu_count < 0 || session.cpu_count > kMostCpus) {
        findings.push_back(analysis_finding(tracedb::DataQualityCounter::kImpossibleCpuCount, 1,
                                            "the session's cpu_count " +
                                                std::to_string(session.cpu_count) +
                                                " is not 0 .. 2^20: read as unknown (0)"));
        session.cpu_count = 0;
    }
    return findings;
}

Status load_processes(const Database& db, TraceModel& model, IdIndex& process_index) {
    std::vector<std::optional<std::int64_t>> parent_ids;
    auto read = for_each_row(db, "process",
                             "SELECT id, pid, parent_id, ppid, comm, cmdline, in_tree, start_ns, "
                             "exec_ns, exit_ns, exit_code FROM process ORDER BY id",
                             [&](const Statement& row) {
                                 ProcessInfo p;
                                 p.id = row.column_int64(0);
                                 p.pid = row.column_int64(1);
                                 parent_ids.push_back(row.column_optional_int64(2));
                                 p.ppid = row.column_optional_int64(3);
                                 p.comm = column_capped(row, 4, kNameBytes);
                                 p.cmdline = optional_column_capped(row, 5, kTextBytes);
                                 p.in_tree = row.column_int64(6) != 0;
                                 p.start_ns = row.column_optional_int64(7);
                                 p.exec_ns = row.column_optional_int64(8);
                                 p.exit_ns = row.column_optional_int64(9);
                                 p.exit_code = row.column_optional_int64(10);
                                 process_index[p.id] = static_cast<int>(model.processes.size());
                                 model.processes.push_back(std::move(p));
                             });
    if (!read) {
        return read;
    }
    for (std::size_t i = 0; i < model.processes.size(); ++i) {
        if (parent_ids[i]) {
            model.processes[i].parent_index = lookup(process_index, *parent_ids[i]);
        }
    }
    return Ok{};
}

Status load_threads(const Database& db, TraceModel& model, const IdIndex& process_index,
                    IdIndex& thread_index) {
    std::int64_t orphans = 0;
    auto read = for_each_row(
        db, "thread", "SELECT id, tid, process_id, comm, start_ns, exit_ns FROM thread",
        [&](const Statement& row) {
            ThreadInfo t;
            t.id = row.column_int64(0);
            t.tid = row.column_int64(1);
            t.process_index = lookup(process_index, row.column_int64(2));
            t.comm = column_capped(row, 3, kNameBytes);
            t.start_ns = row.column_optional_int64(4);
            t.exit_ns = row.column_optional_int64(5);
            if (t.process_index < 0) {
                ++orphans;
                return;
            }
            int index = static_cast<int>(model.threads.size());
            thread_index[t.id] = index;
            model.processes[static_cast<std::size_t>(t.process_index)].thread_indices.push_back(
                index);
            model.threads.push_back(std::move(t));
        });
    if (!read) {
        return read;
    }
    if (orphans > 0) {
        model.data_quality.push_back(analysis_finding(
            tracedb::DataQualityCounter::kOrphanThreadRows, orphans,
            std::to_string(orphans) +
                " thread rows name a process that is not in the file: they are left out, with "
                "their CUDA calls and off-CPU intervals (the trace is damaged or was edited)"));
    }
    return for_each_row(
        db, "thread_rename",
        "SELECT thread_id, old_comm FROM thread_rename "
        "WHERE old_comm IS NOT NULL ORDER BY thread_id, ts_ns",
        [&](const Statement& row) {
            int index = lookup(thread_index, row.column_int64(0));
            if (index >= 0) {
                model.threads[static_cast<std::size_t>(index)].former_comms.push_back(
                    column_capped(row, 1, kNameBytes));
            }
        });
}

Status load_ops(const Database& db, TraceModel& model, IdIndex& op_index) {
    return for_each_row(db, "cuda_op", "SELECT id, name, api, category FROM cuda_op ORDER BY id",
                        [&](const Statement& row) {
                            OpInfo op;
                            op.id = row.column_int64(0);
                            op.name = column_capped(row, 1, kNameBytes);
                            op.api = parse_api(row.column_text(2));
                            op.category = parse_category(row.column_text(3));
                            op_index[op.id] = static_cast<int>(model.ops.size());
                            model.ops.push_back(std::move(op));
                        });
}

// Names the rows load_calls skipped; `loaded`'s columns are the model's by now.
void report_loaded_calls(const LoadedCalls& loaded, const PlausibleValues& plausible,
                         TraceModel& model, std::int64_t& last_event_ns) {
    report_call_loading(loaded, plausible, model.data_quality);
    last_event_ns = std::max(last_event_ns, loaded.last_end_ns);
    if (const std::int64_t orphans = loaded.unknown_thread + loaded.unknown_op; orphans > 0) {
        model.data_quality.push_back(analysis_finding(
            tracedb::DataQualityCounter::kOrphanCudaCalls, orphans,
            std::to_string(orphans) + " CUDA calls are left out of every number: " +
                std::to_string(loaded.unknown_thread) + " name a thread not in the file, " +
                std::to_string(loaded.unknown_op) +
                " an op not in cuda_op (the trace is damaged or was edited)"));
    }
}

// Sorts each list by `less`, stably. Rows are appended to the DB in roughly ts order, so most
// lists are already sorted and are only checked.
template <class T, class Less>
void sort_each_if_needed(std::vector<std::vector<T>>& lists, Less less) {
    for (auto& list : lists) {
        if (!std::is_sorted(list.begin(), list.end(), less)) {
            std::stable_sort(list.begin(), list.end(), less);
        }
    }
}

void index_calls_by_thread(TraceModel& model) {
    const CudaCalls& c = model.calls;
    // Counted first, so each list is allocated once at its size; filled straight into its compact
    // form (a list of 4 bytes a call held beside it cost 0.4 GB of fresh pages at 100M calls).
    std::vector<std::size_t> counts(model.threads.size(), 0);
    for (std::uint32_t i = 0; i < c.size(); ++i) {
        ++counts[static_cast<std::size_t>(c.thread_index[i])];
    }
    model.calls_by_thread.resize(model.threads.size());
    for (std::size_t t = 0; t < counts.size(); ++t) {
        model.calls_by_thread[t].reserve(counts[t]);
    }
    // Rows are appended to the DB in roughly ts order, so a thread's calls are almost always
    // already in time order; a thread whose are not is sorted afterwards, stably.
    std::vector<std::int64_t> latest_ts(model.threads.size(),
                                        std::numeric_limits<std::int64_t>::min());
    std::vector<bool> out_of_order(model.threads.size(), false);
    for (std::uint32_t i = 0; i < c.size(); ++i) {
        const auto t = static_cast<std::size_t>(c.thread_index[i]);
        const std::int64_t ts = c.ts_ns[i];
        if (ts < latest_ts[t]) {
            out_of_order[t] = true;
        }
        latest_ts[t] = ts;
        model.calls_by_thread[t].push_back(i);
    }
    for (std::size_t t = 0; t < out_of_order.size(); ++t) {
        if (out_of_order[t]) {
            auto& calls = model.calls_by_thread[t];
            std::vector<std::uint32_t> sorted(calls.begin(), calls.end());
            std::stable_sort(sorted.begin(), sorted.end(), [&c](std::uint32_t a, std::uint32_t b) {
                return c.ts_ns[a] < c.ts_ns[b];
            });
            calls = decltype(model.calls_by_thread)::value_type(sorted);
        }
    }
}

// Makes the model's calls and their index from the loaded columns; returns how many named a
// stack not in the file (forget_missing_call_stacks).
std::int64_t adopt_calls(LoadedCallColumns loaded, const KnownStacks& known_stacks,
                         TraceModel& model) {
    const std::int64_t missing_stacks = forget_missing_call_stacks(known_stacks, loaded.stack_id);
    model.calls = CudaCalls(std::move(loaded));
    index_calls_by_thread(model);
    model.calls.enclosed = mark_enclosed_driver_calls(model);
    return missing_stacks;
}

// offcpu's columns in the order read; a trace of an older schema lacks the last ones (NULL).
constexpr const char* kOffcpuColumns[] = {
    "thread_id",    "ts_ns",           "dur_ns",     "reason", "runq_wait_ns", "next_thread_id",
    "wake_context", "waker_thread_id", "syscall_nr", "iowait", "waits_for"};

std::size_t offcpu_columns_in(std::int64_t schema_version) {
    return schema_version >= 5 ? 11 : schema_version >= 2 ? 10 : 6;
}

// Takes offcpu's rows into the model, as either reader gives them.
struct OffCpuRows {
    TraceModel& model;
    const IdLookup& thread_of_id;
    const PlausibleValues& plausible;
    LeftOutRows& left_out;
    std::int64_t& last_event_ns;
    const std::int64_t last_event_before = last_event_ns;
    std::int64_t unknown = 0;

    // Drops every row taken so far, for another reader to take them all again.
    void forget() {
        for (auto& intervals : model.offcpu_by_thread) {
            intervals.clear();
        }
        unknown = 0;
        left_out.count = 0;
        left_out.first.clear();
        last_event_ns = last_event_before;
    }

    // One row; `column(i)` is its column i of kOffcpuColumns, std::nullopt when NULL or absent.
    template <class Column>
    void add(const Column& column) {
        int thread = thread_of_id(column(0).value_or(0));
        if (thread < 0) {
            ++unknown;
            return;
        }
        OffCpuInterval o;
        o.ts_ns = column(1).value_or(0);
        o.dur_ns = column(2).value_or(0);
        const auto reason = static_cast<tracedb::OffCpuReason>(column(3).value_or(0));
        o.preempted = reason != tracedb::OffCpuReason::kBlocked;
        o.runq_wait_ns = column(4).value_or(0);
        if (!plausible.interval(o.ts_ns, o.dur_ns) || o.runq_wait_ns < 0 ||
            o.runq_wait_ns > o.dur_ns) {
            left_out.add([&] {
                return "ts_ns " + std::to_string(o.ts_ns) + ", dur_ns " + std::to_string(o.dur_ns) +
                       ", runq_wait_ns " + std::to_string(o.runq_wait_ns);
            });
            return;
        }
        if (auto next = column(5); next && reason != tracedb::OffCpuReason::kThrottled) {
            o.next_thread_index = thread_of_id(*next);
        }
        if (auto wake = column(6); wake && *wake >= 0 && *wake <= 3) {
            o.wake = static_cast<Wake>(*wake);
        }
        if (auto waker = column(7)) {
            o.waker_thread_index = thread_of_id(*waker);
        }
        if (auto nr = column(8); nr && *nr >= kNoSyscall && *nr < kMaxSyscall) {
            o.syscall_nr = static_cast<std::int16_t>(*nr);
        }
        if (auto iowait = column(9)) {
            o.iowait = *iowait != 0 ? 1 : 0;
        }
        o.gil = !o.preempted && column(10) == static_cast<std::int64_t>(tracedb::WaitsFor::kGil);
        last_event_ns = std::max(last_event_ns, o.end_ns());
        model.offcpu_by_thread[static_cast<std::size_t>(thread)].push_back(o);
    }
};

// offcpu from its b-tree pages, as cuda_call is read (tracedb/btree_scan.hpp): with SQL a row
// cost about 3,500 instructions, six times what decoding its record does. Whether every row was
// read; on a refusal some may have been taken.
bool offcpu_from_pages(const Database& db, const std::string& path, std::size_t columns,
                       OffCpuRows& rows) {
    auto scan = tracedb::BtreeTableScan::open(
        db, path, "offcpu",
        std::vector<std::string>(std::begin(kOffcpuColumns), std::begin(kOffcpuColumns) + columns));
    if (!scan) {
        return false;
    }
    tracedb::BtreeTableScan::Buffer buffer;
    std::vector<tracedb::BtreeTableScan::Row> leaf_rows;
    for (std::size_t leaf = 0; leaf < scan->leaves().size(); ++leaf) {
        if (!scan->read_leaf(leaf, buffer, leaf_rows)) {
            return false;
        }
        for (const auto& row : leaf_rows) {
            rows.add([&row, columns](std::size_t i) -> std::optional<std::int64_t> {
                if (i >= columns || row.is_null(static_cast<int>(i))) {
                    return std::nullopt;
                }
                return row.columns[i];
            });
        }
    }
    return true;
}

Status load_offcpu(const Database& db, const std::string& path, std::int64_t schema_version,
                   TraceModel& model, const IdLookup& thread_of_id,
                   const PlausibleValues& plausible, LeftOutRows& left_out,
                   std::int64_t& last_event_ns) {
    model.offcpu_by_thread.assign(model.threads.size(), {});
    // Each thread's list is allocated once at its size, counted from the index: grown by
    // doubling, the lists of a 100M-call trace held up to twice their 500 MB, and every step's
    // copy touched fresh pages. Only the sizing rests on the count: where it cannot be read (a
    // damaged index), the rows below are read all the same.
    static_cast<void>(
        for_each_row(db, "offcpu", "SELECT thread_id, COUNT(*) FROM offcpu GROUP BY thread_id",
                     [&](const Statement& row) {
                         if (int thread = thread_of_id(row.column_int64(0)); thread >= 0) {
                             model.offcpu_by_thread[static_cast<std::size_t>(thread)].reserve(
                                 static_cast<std::size_t>(row.column_int64(1)));
                         }
                     }));
    OffCpuRows rows{model, thread_of_id, plausible, left_out, last_event_ns};
    const std::size_t columns = offcpu_columns_in(schema_version);
    // The page reader needs a read transaction, whose lock keeps writers off the pages.
    const bool own_transaction = sqlite3_get_autocommit(db.get()) != 0;
    if (own_transaction) {
        if (auto begun = db.exec("BEGIN"); !begun) {
            return begun;
        }
    }
    Status read = Ok{};
    if (!offcpu_from_pages(db, path, columns, rows)) {
        rows.forget();
        std::string sql = "SELECT ";
        for (std::size_t i = 0; i < columns; ++i) {
            sql += std::string(i > 0 ? ", " : "") + kOffcpuColumns[i];
        }
        read =
            for_each_row(db, "offcpu", (sql + " FROM offcpu").c_str(), [&](const Statement& row) {
                rows.add([&row, columns](std::size_t i) -> std::optional<std::int64_t> {
                    if (i >= columns) {
                        return std::nullopt;
                    }
                    return row.column_optional_int64(static_cast<int>(i));
                });
            });
    }
    if (own_transaction) {
        if (auto ended = db.exec("COMMIT"); !ended && read) {
            read = ended;
        }
    }
    if (!read) {
        return read;
    }
    // Read in stored order, not through the index (a random lookup per row), then sorted.
    sort_each_if_needed(
        model.offcpu_by_thread,
        [](const OffCpuInterval& a, const OffCpuInterval& b) { return a.ts_ns < b.ts_ns; });
    if (rows.unknown > 0) {
        model.notes.push_back(std::to_string(rows.unknown) +
                              " off-CPU intervals name a thread that is not in the file; skipped");
    }
    return Ok{};
}

Status load_sched_totals(const Database& db, TraceModel& model, const IdIndex& thread_index,
                         const PlausibleValues& plausible, LeftOutRows& left_out) {
    model.sched_by_thread.assign(model.threads.size(), std::nullopt);
    return for_each_row(
        db, "thread_sched_total",
        "SELECT thread_id, voluntary_switches, involuntary_switches, oncpu_ns, "
        "preempted_ns, blocked_ns, runq_wait_ns, wakeups FROM thread_sched_total",
        [&](const Statement& row) {
            int thread = lookup(thread_index, row.column_int64(0));
            if (thread < 0) {
                return;
            }
            SchedTotal total{
                .voluntary_switches = row.column_int64(1),
                .involuntary_switches = row.column_int64(2),
                .oncpu_ns = row.column_int64(3),
                .preempted_ns = row.column_int64(4),
                .blocked_ns = row.column_int64(5),
                .runq_wait_ns = row.column_int64(6),
                .wakeups = row.column_int64(7),
            };
            // One thread is in one place at a time: none of its totals outlasts the session.
            if (!plausible.duration(total.oncpu_ns) || !plausible.duration(total.preempted_ns) ||
                !plausible.duration(total.blocked_ns) || !plausible.duration(total.runq_wait_ns) ||
                !plausible.amount(total.voluntary_switches) ||
                !plausible.amount(total.involuntary_switches) || !plausible.amount(total.wakeups)) {
                left_out.add([&] {
                    return "thread_id " + std::to_string(row.column_int64(0)) + ", oncpu_ns " +
                           std::to_string(total.oncpu_ns) + ", preempted_ns " +
                           std::to_string(total.preempted_ns) + ", blocked_ns " +
                           std::to_string(total.blocked_ns);
                });
                return;
            }
            model.sched_by_thread[static_cast<std::size_t>(thread)] = total;
        });
}

Status load_page_alloc(const Database& db, TraceModel& model, const IdIndex& process_index,
                       const PlausibleValues& plausible, LeftOutRows& left_out) {
    return for_each_row(
        db, "page_alloc",
        "SELECT process_id, bucket_ns, count, bytes FROM page_alloc "
        "ORDER BY bucket_ns",
        [&](const Statement& row) {
            PageAllocBucket bucket{.process_index = lookup(process_index, row.column_int64(0)),
                                   .bucket_ns = row.column_int64(1),
                                   .count = row.column_int64(2),
                                   .bytes = row.column_int64(3)};
            if (!plausible.time(bucket.bucket_ns) || !plausible.amount(bucket.count) ||
                !plausible.amount(bucket.bytes)) {
                left_out.add([&] {
                    return "bucket_ns " + std::to_string(bucket.bucket_ns) + ", count " +
                           std::to_string(bucket.count) + ", bytes " + std::to_string(bucket.bytes);
                });
                return;
            }
            model.page_alloc.push_back(bucket);
        });
}

Status load_snapshots(const Database& db, TraceModel& model, const PlausibleValues& plausible,
                      LeftOutRows& left_out) {
    return for_each_row(
        db, "system_snapshot",
        "SELECT ts_ns, cpu_busy_pct, cpu_iowait_pct, mem_available_bytes, load1, "
        "procs_running, ctxt_per_s FROM system_snapshot ORDER BY ts_ns",
        [&](const Statement& row) {
            Snapshot snapshot{.ts_ns = row.column_int64(0),
                              .cpu_busy_pct = row.column_double(1),
                              .cpu_iowait_pct = row.column_double(2),
                              .mem_available_bytes = row.column_int64(3),
                              .load1 = row.column_double(4),
                              .procs_running = row.column_int64(5),
                              .ctxt_per_s = row.column_double(6)};
            auto percent = [](double pct) { return pct >= 0 && pct <= 100; };  // false for NaN
            auto rate = [](double value) { return value >= 0 && value < 1e15; };
            if (!plausible.time(snapshot.ts_ns) || !percent(snapshot.cpu_busy_pct) ||
                !percent(snapshot.cpu_iowait_pct) || !plausible.amount(snapshot.procs_running) ||
                !rate(snapshot.load1) || !rate(snapshot.ctxt_per_s)) {
                left_out.add([&] {
                    return "ts_ns " + std::to_string(snapshot.ts_ns) + ", cpu_busy_pct " +
                           std::to_string(snapshot.cpu_busy_pct) + ", load1 " +
                           std::to_string(snapshot.load1);
                });
                return;
            }
            model.snapshots.push_back(snapshot);
        });
}

Status load_cgroup_samples(const Database& db, std::int64_t schema_version, TraceModel& model,
                           const IdIndex& process_index, const PlausibleValues& plausible) {
    if (schema_version < 4) {
        return Ok{};
    }
    return for_each_row(
        db, "cgroup_sample",
        schema_version >= 5
            ? "SELECT ts_ns, process_id, version, path, limit_path, quota_us, period_us, "
              "nr_periods, nr_throttled, throttled_ns, cpus_allowed FROM cgroup_sample ORDER BY "
              "ts_ns"
            : "SELECT ts_ns, process_id, version, path, limit_path, quota_us, period_us, "
              "nr_periods, nr_throttled, throttled_ns, NULL FROM cgroup_sample ORDER BY ts_ns",
        [&](const Statement& row) {
            CgroupSample sample{.ts_ns = row.column_int64(0),
                                .process_index = lookup(process_index, row.column_int64(1)),
                                .version = row.column_int64(2),
                                .path = row.column_text(3),
                                .limit_path = row.column_optional_text(4),
                                .quota_us = row.column_int64(5),
                                .period_us = row.column_int64(6),
                                .nr_periods = row.column_int64(7),
                                .nr_throttled = row.column_int64(8),
                                .throttled_ns = row.column_int64(9),
                                .cpus_allowed = row.column_optional_int64(10)};
            // A sample of an unknown process, or with impossible values, says nothing.
            if (sample.process_index < 0 || !plausible.time(sample.ts_ns) ||
                !plausible.amount(sample.quota_us) || !plausible.amount(sample.period_us) ||
                !plausible.amount(sample.nr_periods) || !plausible.amount(sample.nr_throttled) ||
                !plausible.amount(sample.throttled_ns)) {
                return;
            }
            constexpr std::int64_t kMostCpus = 1 << 16;
            if (sample.cpus_allowed &&
                (*sample.cpus_allowed < 1 || *sample.cpus_allowed > kMostCpus)) {
                sample.cpus_allowed.reset();  // impossible: not known
            }
            // In time order: the process's latest group is the one it is named by.
            ProcessInfo& process = model.processes[static_cast<std::size_t>(sample.process_index)];
            process.cgroup = sample.path;
            process.container = container_of(sample.path);
            model.cgroup_samples.push_back(std::move(sample));
        });
}

// NCCL communicators and calls (schema 6). A row of an unknown process, thread or op, or outside
// the session, says nothing and is left out.
Status load_nccl(const Database& db, std::int64_t schema_version, TraceModel& model,
                 const IdIndex& process_index, const IdIndex& thread_index, const IdIndex& op_index,
                 const PlausibleValues& plausible) {
    if (schema_version < 6) {
        return Ok{};
    }
    IdIndex comm_index;
    auto comms = for_each_row(
        db, "nccl_comm", "SELECT id, process_id, handle, nranks, rank FROM nccl_comm ORDER BY id",
        [&](const Statement& row) {
            NcclComm comm{.process_index = lookup(process_index, row.column_int64(1)),
                          .handle = row.column_int64(2),
                          .nranks = row.column_optional_int64(3),
                          .rank = row.column_optional_int64(4)};
            if (comm.process_index < 0) {
                return;
            }
            comm_index.emplace(row.column_int64(0), static_cast<int>(model.nccl_comms.size()));
            model.nccl_comms.push_back(comm);
        });
    if (!comms) {
        return comms;
    }
    return for_each_row(
        db, "nccl_call",
        "SELECT thread_id, op_id, ts_ns, comm_id, count, peer FROM nccl_call ORDER BY ts_ns",
        [&](const Statement& row) {
            const auto comm = row.column_optional_int64(3);
            NcclCall call{.thread_index = lookup(thread_index, row.column_int64(0)),
                          .op_index = lookup(op_index, row.column_int64(1)),
                          .ts_ns = row.column_int64(2),
                          .comm_index = comm ? lookup(comm_index, *comm) : -1,
                          .count = row.column_optional_int64(4),
                          .peer = row.column_optional_int64(5)};
            if (call.thread_index < 0 || call.op_index < 0 || !plausible.time(call.ts_ns)) {
                return;
            }
            model.nccl_calls.push_back(call);
        });
}

Status load_data_quality(const Database& db, TraceModel& model) {
    return for_each_row(db, "data_quality",
                        "SELECT source, counter, value, severity, description FROM data_quality "
                        "ORDER BY CASE severity WHEN 'data_loss' THEN 0 WHEN 'error' THEN 1 "
                        "ELSE 2 END, source, counter",
                        [&](const Statement& row) {
                            DataQualityItem item{.source = column_capped(row, 0, kNameBytes),
                                                 .counter = column_capped(row, 1, kNameBytes),
                                                 .value = row.column_int64(2),
                                                 .severity = column_capped(row, 3, kNameBytes),
                                                 .description = column_capped(row, 4, kTextBytes)};
                            item.known = tracedb::find_counter(item.source, item.counter);
                            model.data_quality.push_back(std::move(item));
                        });
}

Status load_event_counts(const Database& db, TraceModel& model, const IdIndex& process_index,
                         const PlausibleValues& plausible, LeftOutRows& left_out) {
    return for_each_row(
        db, "event_count",
        "SELECT process_id, bucket_ns, bucket_dur_ns, event, count, total_dur_ns, "
        "max_dur_ns FROM event_count ORDER BY bucket_ns",
        [&](const Statement& row) {
            auto process = row.column_optional_int64(0);
            EventCount count{.process_index = process ? lookup(process_index, *process) : -1,
                             .bucket_ns = row.column_int64(1),
                             .bucket_dur_ns = row.column_int64(2),
                             .event = column_capped(row, 3, kNameBytes),
                             .count = row.column_int64(4),
                             .total_dur_ns = row.column_optional_int64(5),
                             .max_dur_ns = row.column_optional_int64(6)};
            // A bucket starts in the session but may end after it (an importer's last bucket).
            if (!plausible.time(count.bucket_ns) || !plausible.length(count.bucket_dur_ns) ||
                !plausible.amount(count.count) ||
                !plausible.amount(count.total_dur_ns.value_or(0)) ||
                !plausible.length(count.max_dur_ns.value_or(0))) {
                left_out.add([&] {
                    return "bucket_ns " + std::to_string(count.bucket_ns) + ", bucket_dur_ns " +
                           std::to_string(count.bucket_dur_ns) + ", count " +
                           std::to_string(count.count);
                });
                return;
            }
            model.event_counts.push_back(std::move(count));
        });
}

Status load_probes(const Database& db, TraceModel& model) {
    return for_each_row(
        db, "probe", "SELECT library, symbol, kind, required, attached, error FROM probe",
        [&](const Statement& row) {
            model.probes.push_back({.library = column_capped(row, 0, kTextBytes),
                                    .symbol = column_capped(row, 1, kTextBytes),
                                    .kind = column_capped(row, 2, kNameBytes),
                                    .required = row.column_int64(3) != 0,
                                    .attached = row.column_int64(4) != 0,
                                    .error = optional_column_capped(row, 5, kTextBytes)});
        });
}

}  // namespace

CudaCalls::CudaCalls(LoadedCallColumns loaded) {
    // Each column is made compact on its own, the mostly-usual ones first, those that keep the
    // least first: they free the most of the loaded columns' memory (0.9 GB of 2.1 on a 100M-call
    // trace) before the ids' columns are allocated. The timestamps and durations are loaded as
    // they are held.
    ret = decltype(ret)(std::exchange(loaded.ret, {}));
    host_pinned = decltype(host_pinned)(std::exchange(loaded.host_pinned, {}));
    stack_id = decltype(stack_id)(std::exchange(loaded.stack_id, {}));
    bytes = decltype(bytes)(std::exchange(loaded.bytes, {}));
    thread_index = decltype(thread_index)(std::move(loaded.thread_index));
    op_index = decltype(op_index)(std::move(loaded.op_index));
    dur_ns = std::move(loaded.dur_ns);
    ts_ns = std::move(loaded.ts_ns);
}

const char* category_name(OpCategory category) {
    for (const auto& [known, name] : kCategoryNames) {
        if (known == category) {
            return name;
        }
    }
    return "other";
}

const char* op_api_name(OpApi api) {
    for (const auto& [known, name] : kApiNames) {
        if (known == api) {
            return name;
        }
    }
    return "runtime";
}

DataQualityItem analysis_finding(tracedb::DataQualityCounter counter, std::int64_t value,
                                 std::string description) {
    const tracedb::DataQualityRecord row =
        tracedb::counter_record(counter, value, std::move(description));
    return {row.source,      row.counter, row.value, tracedb::severity_name(row.severity),
            row.description, counter};
}

std::int64_t TraceModel::end_ns() const {
    return session.stop_ns ? std::max(*session.stop_ns, std::int64_t{0}) : last_event_ns_;
}

int TraceModel::find_op(const std::string& name) const {
    for (std::size_t i = 0; i < ops.size(); ++i) {
        if (ops[i].name == name) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

Result<TraceModel> load_trace(const tracedb::TraceReader& reader) {
    const Database& db = reader.db();
    TraceModel model;
    model.path = reader.path();
    model.notes = reader.notes();
    IdIndex process_ids, thread_ids, op_ids;
    std::int64_t last_event_ns = 0;
    auto run = [&model](std::initializer_list<std::function<Status()>> steps) -> Status {
        for (const auto& step : steps) {
            if (auto status = step(); !status) {
                return Error{model.path + ": " + status.error().message};
            }
        }
        return Ok{};
    };
    if (auto status = run({
            [&] { return load_session(db, reader.schema_version(), model.session); },
            [&] { return load_processes(db, model, process_ids); },
            [&] { return load_threads(db, model, process_ids, thread_ids); },
            [&] { return load_ops(db, model, op_ids); },
        });
        !status) {
        return status.error();
    }
    std::vector<DataQualityItem> session_findings = check_session(model.session);
    const PlausibleValues plausible(model.session.stop_ns);
    // cuda_call is by far the largest table: it is read on connections of its own.
    const IdLookup thread_of_id(thread_ids), op_of_id(op_ids);
    auto calls = std::async(std::launch::async, load_calls, reader.path(), std::cref(thread_of_id),
                            std::cref(op_of_id), std::cref(plausible));
    std::vector<LeftOutRows> left_out{
        {tracedb::DataQualityCounter::kImpossibleOffcpuIntervals, "off-CPU intervals",
         "an interval must lie inside the session, and its run-queue wait inside it"},
        {tracedb::DataQualityCounter::kImpossibleSchedTotals, "per-thread scheduling totals",
         "no total of one thread may be negative or outlast the session"},
        {tracedb::DataQualityCounter::kImpossiblePageAllocBuckets, "page-allocation buckets",
         "a bucket must lie inside the session and count 0 .. 2^50 pages and bytes"},
        {tracedb::DataQualityCounter::kImpossibleSnapshots, "system snapshots",
         "a snapshot must lie inside the session, with percentages of 0 .. 100"},
        {tracedb::DataQualityCounter::kImpossibleEventCounts, "event-count buckets",
         "a bucket must start inside the session, last at most 366 days and count 0 .. 2^50 "
         "events"},
    };
    auto known_stacks = KnownStacks::load(db);
    // The calls' pages are read on every CPU. The other tables are read after, beside the
    // making of the calls' columns and index, which is work for one CPU: read first, they took
    // a CPU from the pages, and a CPU was left idle at the end.
    auto loaded = calls.get();
    if (!known_stacks) {
        return Error{model.path + ": " + known_stacks.error().message};
    }
    auto others = std::async(std::launch::async, [&] {
        return run({
            [&] {
                return load_offcpu(db, reader.path(), reader.schema_version(), model, thread_of_id,
                                   plausible, left_out[0], last_event_ns);
            },
            [&] { return load_sched_totals(db, model, thread_ids, plausible, left_out[1]); },
            [&] { return load_page_alloc(db, model, process_ids, plausible, left_out[2]); },
            [&] { return load_snapshots(db, model, plausible, left_out[3]); },
            [&] {
                return load_cgroup_samples(db, reader.schema_version(), model, process_ids,
                                           plausible);
            },
            [&] { return load_data_quality(db, model); },
            [&] {
                return load_nccl(db, reader.schema_version(), model, process_ids, thread_ids,
                                 op_ids, plausible);
            },
            [&] { return load_event_counts(db, model, process_ids, plausible, left_out[4]); },
            [&] { return load_probes(db, model); },
            [&] {
                return load_python_stacks(db, reader.schema_version(), thread_ids, *known_stacks,
                                          model);
            },
        });
    });
    // Only the calls' columns and lists are made here: the tables read beside them fill the
    // model's other members, and the findings of both are added after, in a fixed order.
    const std::int64_t missing_stacks =
        loaded ? adopt_calls(std::move(loaded->calls), *known_stacks, model) : 0;
    if (auto status = others.get(); !status) {
        return status.error();
    }
    if (!loaded) {
        return Error{model.path + ": " + loaded.error().message};
    }
    model.data_quality.insert(model.data_quality.end(), session_findings.begin(),
                              session_findings.end());
    report_left_out(left_out, plausible, model.data_quality);
    report_loaded_calls(*loaded, plausible, model, last_event_ns);
    report_missing_call_stacks(missing_stacks, model.data_quality);
    auto stacks = db.query_int64("SELECT count(*) FROM stack");
    model.stack_count = stacks ? *stacks : 0;
    for (const auto& s : model.snapshots) {
        last_event_ns = std::max(last_event_ns, s.ts_ns);
    }
    model.last_event_ns_ = last_event_ns;
    assign_gil_holders(model);
    give_back_freed_heap();  // the loaded columns and the index's lists, made compact
    return model;
}

}  // namespace causeway::analysis
