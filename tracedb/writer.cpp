#include "tracedb/writer.hpp"

#include <sys/stat.h>

#include "tracedb/schema.hpp"

namespace causeway::tracedb {

const char* severity_name(Severity severity) {
    switch (severity) {
        case Severity::kInfo:
            return "info";
        case Severity::kError:
            return "error";
        case Severity::kDataLoss:
            return "data_loss";
    }
    return "info";
}

Result<TraceWriter> TraceWriter::create(const std::string& path, const SessionRecord& session) {
    struct stat existing {};
    if (::stat(path.c_str(), &existing) == 0) {
        return Error{"cannot create trace DB " + path +
                     ": the file already exists (remove it or choose another --db path)"};
    }
    // NOMUTEX: a writer is used by one thread at a time (see the class), so SQLite's per-call
    // mutex would be pure cost on the collector's hot path.
    auto opened =
        Database::open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX);
    if (!opened) {
        return Error{"cannot create trace DB " + path + ": " + opened.error().message +
                     " (is the folder writable?)"};
    }
    Database db = std::move(opened.value());
    for (const char* pragma : {"PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL",
                               "PRAGMA cache_size=-65536", "PRAGMA foreign_keys=OFF"}) {
        if (auto status = db.exec(pragma); !status) {
            return Error{"cannot set up trace DB " + path + ": " + status.error().message};
        }
    }
    std::string schema(schema_sql());
    if (auto status = db.exec(schema.c_str()); !status) {
        return Error{"cannot create the schema in " + path + ": " + status.error().message};
    }

    auto insert_session = db.prepare(
        "INSERT INTO session (id, host, kernel, cpu_count, cpu_model, mem_total_bytes, gpu, "
        "command_line, collector_version, collector_flags, source, offcpu_floor_ns, "
        "page_bucket_ns, start_mono_ns, start_wall_ns, machine, python_sample_gap_ns, "
        "gpu_link_mts, gpu_link_width) "
        "VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    if (!insert_session) {
        return insert_session.error();
    }
    Statement& s = *insert_session;
    s.bind(1, session.host);
    s.bind(2, session.kernel);
    s.bind(3, session.cpu_count);
    s.bind(4, session.cpu_model);
    s.bind(5, session.mem_total_bytes);
    s.bind(6, session.gpu);
    s.bind(7, session.command_line);
    s.bind(8, session.collector_version);
    s.bind(9, session.collector_flags);
    s.bind(10, session.source);
    s.bind(11, session.offcpu_floor_ns);
    s.bind(12, session.page_bucket_ns);
    s.bind(13, session.start_mono_ns);
    s.bind(14, session.start_wall_ns);
    s.bind(15, session.machine);
    s.bind(16, session.python_sample_gap_ns);
    s.bind(17, session.gpu_link_mts);
    s.bind(18, session.gpu_link_width);
    if (s.step() != SQLITE_DONE) {
        return Error{"cannot write the session row to " + path + ": " + db.last_error()};
    }

    TraceWriter writer;
    writer.path_ = path;
    writer.db_ = std::move(db);
    writer.space_reserve_ = SpaceReserve::allocate(path + "-space-reserve", kSpaceReserveBytes);
    if (auto status = writer.prepare_statements(); !status) {
        return status.error();
    }
    return writer;
}

namespace {

constexpr int kCudaCallColumns = 10;

std::string cuda_call_insert_sql(std::size_t rows) {
    std::string sql =
        "INSERT INTO cuda_call (thread_id, op_id, ts_ns, dur_ns, bytes, copy_kind, host_pinned, "
        "stream_id, ret, stack_id) VALUES ";
    for (std::size_t row = 0; row < rows; ++row) {
        sql += row == 0 ? "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)" : ", (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    }
    return sql;
}

// Binds one call's columns to parameters first .. first + kCudaCallColumns - 1.
void bind_cuda_call(Statement& s, int first, const CudaCallRecord& c) {
    s.bind(first, c.thread_id);
    s.bind(first + 1, c.op_id);
    s.bind(first + 2, c.ts_ns);
    s.bind(first + 3, c.dur_ns);
    s.bind(first + 4, c.bytes);
    s.bind(first + 5, c.copy_kind);
    s.bind(first + 6, c.host_pinned);
    s.bind(first + 7, c.stream_id);
    s.bind(first + 8, c.ret);
    s.bind(first + 9, c.stack_id);
}

}  // namespace

Status TraceWriter::prepare_statements() {
    struct Entry {
        Statement* stmt;
        std::string sql;
    };
    const Entry entries[] = {
        {&insert_process_,
         "INSERT INTO process (pid, parent_id, ppid, comm, cmdline, in_tree, start_ns, exec_ns, "
         "exit_ns, exit_code) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"},
        {&set_process_exec_,
         "UPDATE process SET exec_ns = ?2, comm = ?3, cmdline = coalesce(?4, cmdline) "
         "WHERE id = ?1"},
        {&set_process_exit_, "UPDATE process SET exit_ns = ?2, exit_code = ?3 WHERE id = ?1"},
        {&insert_thread_,
         "INSERT INTO thread (tid, process_id, comm, start_ns, exit_ns) VALUES (?, ?, ?, ?, ?)"},
        {&insert_rename_,
         "INSERT INTO thread_rename (thread_id, ts_ns, old_comm, new_comm) VALUES (?, ?, ?, ?)"},
        {&set_thread_comm_, "UPDATE thread SET comm = ?2 WHERE id = ?1"},
        // A process is named after its main thread, as /proc/PID/comm is.
        {&set_main_thread_process_comm_,
         "UPDATE process SET comm = ?2 WHERE id = (SELECT process_id FROM thread WHERE id = ?1) "
         "AND pid = (SELECT tid FROM thread WHERE id = ?1)"},
        {&set_thread_exit_, "UPDATE thread SET exit_ns = ?2 WHERE id = ?1"},
        {&insert_stream_, "INSERT INTO cuda_stream (process_id, handle) VALUES (?, ?)"},
        {&insert_nccl_comm_, "INSERT INTO nccl_comm (process_id, handle) VALUES (?, ?)"},
        {&set_nccl_comm_ranks_, "UPDATE nccl_comm SET nranks = ?, rank = ? WHERE id = ?"},
        {&insert_nccl_call_,
         "INSERT INTO nccl_call (thread_id, ts_ns, op_id, comm_id, count, datatype, redop, peer) "
         "VALUES (?, ?, ?, ?, ?, ?, ?, ?)"},
        {&insert_stack_, "INSERT INTO stack (process_id, python_truncated) VALUES (?, ?)"},
        {&insert_python_frame_,
         "INSERT INTO stack_python_frame (stack_id, depth, file, function, line, first_line, "
         "code_address, instr_offset) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"},
        {&insert_switch_out_stack_,
         "INSERT INTO switch_out_stack (thread_id, ts_ns, stack_id, role, reason, gpu_thread_id, "
         "gpu_switch_out_ns) VALUES (?, ?, ?, ?, ?, ?, ?)"},
        {&insert_frame_,
         "INSERT INTO stack_frame (stack_id, depth, address, module, symbol, offset) "
         "VALUES (?, ?, ?, ?, ?, ?)"},
        {&insert_cuda_call_, cuda_call_insert_sql(1).c_str()},
        {&insert_cuda_calls_, cuda_call_insert_sql(kCallsPerInsert).c_str()},
        {&insert_offcpu_,
         "INSERT INTO offcpu (thread_id, ts_ns, dur_ns, reason, runq_wait_ns, cpu, "
         "next_thread_id, wake_context, waker_thread_id, syscall_nr, iowait, waits_for) "
         "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"},
        {&put_sched_total_,
         "INSERT OR REPLACE INTO thread_sched_total (thread_id, voluntary_switches, "
         "involuntary_switches, oncpu_ns, preempted_ns, blocked_ns, runq_wait_ns, wakeups) "
         "VALUES (?, ?, ?, ?, ?, ?, ?, ?)"},
        {&add_page_alloc_,
         "INSERT INTO page_alloc (process_id, bucket_ns, count, bytes) VALUES (?, ?, ?, ?) "
         "ON CONFLICT (process_id, bucket_ns) DO UPDATE SET count = count + excluded.count, "
         "bytes = bytes + excluded.bytes"},
        {&add_cgroup_sample_,
         "INSERT INTO cgroup_sample (ts_ns, process_id, version, path, limit_path, quota_us, "
         "period_us, nr_periods, nr_throttled, throttled_ns, cpus_allowed) VALUES (?, ?, ?, ?, ?, "
         "?, ?, ?, ?, ?, ?)"},
        {&insert_snapshot_,
         "INSERT OR REPLACE INTO system_snapshot (ts_ns, cpu_busy_pct, cpu_user_pct, "
         "cpu_system_pct, cpu_iowait_pct, mem_total_bytes, mem_available_bytes, load1, "
         "procs_running, ctxt_per_s) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"},
        {&put_probe_,
         "INSERT OR REPLACE INTO probe (library, symbol, kind, required, attached, error) "
         "VALUES (?, ?, ?, ?, ?, ?)"},
        {&put_data_quality_,
         "INSERT OR REPLACE INTO data_quality (source, counter, value, severity, description) "
         "VALUES (?, ?, ?, ?, ?)"},
        {&insert_event_count_,
         "INSERT INTO event_count (process_id, bucket_ns, bucket_dur_ns, event, count, stored, "
         "total_dur_ns, max_dur_ns) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"},
        {&set_meta_, "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)"},
        {&insert_cuda_op_, "INSERT INTO cuda_op (id, name, api, category) VALUES (?, ?, ?, ?)"},
    };
    for (const auto& entry : entries) {
        auto stmt = db_.prepare(entry.sql);
        if (!stmt) {
            return stmt.error();
        }
        *entry.stmt = std::move(stmt.value());
    }
    return Ok{};
}

Error TraceWriter::write_failed(std::string message) {
    const int code = sqlite3_errcode(db_.get()) & 0xff;  // the primary code of an extended one
    if (code == SQLITE_FULL) {
        space_reserve_.release();  // room for the rows that close the DB
    }
    storage_failed_ = storage_failed_ || code == SQLITE_FULL || code == SQLITE_IOERR;
    return Error{std::move(message)};
}

Status TraceWriter::begin_if_needed() {
    if (in_transaction_) {
        return Ok{};
    }
    if (auto status = db_.exec("BEGIN"); !status) {
        return write_failed("cannot begin a transaction in " + path_ + ": " +
                            status.error().message);
    }
    in_transaction_ = true;
    return Ok{};
}

Status TraceWriter::run(Statement& stmt, std::int64_t rows) {
    if (auto status = begin_if_needed(); !status) {
        stmt.reset();
        return status;
    }
    int rc = stmt.step();
    stmt.reset();
    if (rc != SQLITE_DONE) {
        return write_failed("cannot write to trace DB " + path_ + ": " + db_.last_error());
    }
    rows_written_ += rows;
    rows_in_batch_ += rows;
    if (rows_in_batch_ >= kDefaultBatchRows) {
        return commit();
    }
    return Ok{};
}

void TraceWriter::abandon_batch() {
    pending_calls_.clear();
    if (sqlite3_get_autocommit(db_.get()) == 0) {
        (void)db_.exec("ROLLBACK");
    }
    in_transaction_ = false;
    rows_in_batch_ = 0;
}

Status TraceWriter::commit() {
    if (auto status = flush_calls(); !status) {
        return status;
    }
    if (!in_transaction_) {
        return Ok{};
    }
    in_transaction_ = false;
    rows_in_batch_ = 0;
    if (auto status = db_.exec("COMMIT"); !status) {
        return write_failed("cannot commit to trace DB " + path_ + ": " + status.error().message);
    }
    return Ok{};
}

Result<std::int64_t> TraceWriter::add_process(const ProcessRecord& p) {
    Statement& s = insert_process_;
    s.bind(1, p.pid);
    s.bind(2, p.parent_id);
    s.bind(3, p.ppid);
    s.bind(4, p.comm);
    s.bind(5, p.cmdline);
    s.bind(6, p.in_tree ? 1 : 0);
    s.bind(7, p.start_ns);
    s.bind(8, p.exec_ns);
    s.bind(9, p.exit_ns);
    s.bind(10, p.exit_code);
    if (auto status = run(s); !status) {
        return status.error();
    }
    return db_.last_insert_rowid();
}

Status TraceWriter::set_process_exec(std::int64_t process_id, std::int64_t exec_ns,
                                     const std::string& comm,
                                     const std::optional<std::string>& cmdline) {
    set_process_exec_.bind(1, process_id);
    set_process_exec_.bind(2, exec_ns);
    set_process_exec_.bind(3, comm);
    set_process_exec_.bind(4, cmdline);
    return run(set_process_exec_);
}

Status TraceWriter::set_process_exit(std::int64_t process_id, std::int64_t exit_ns,
                                     std::optional<std::int64_t> exit_code) {
    set_process_exit_.bind(1, process_id);
    set_process_exit_.bind(2, exit_ns);
    set_process_exit_.bind(3, exit_code);
    return run(set_process_exit_);
}

Result<std::int64_t> TraceWriter::add_thread(const ThreadRecord& t) {
    insert_thread_.bind(1, t.tid);
    insert_thread_.bind(2, t.process_id);
    insert_thread_.bind(3, t.comm);
    insert_thread_.bind(4, t.start_ns);
    insert_thread_.bind(5, t.exit_ns);
    if (auto status = run(insert_thread_); !status) {
        return status.error();
    }
    return db_.last_insert_rowid();
}

Status TraceWriter::rename_thread(std::int64_t thread_id, std::int64_t ts_ns,
                                  const std::optional<std::string>& old_comm,
                                  const std::string& new_comm) {
    insert_rename_.bind(1, thread_id);
    insert_rename_.bind(2, ts_ns);
    insert_rename_.bind(3, old_comm);
    insert_rename_.bind(4, new_comm);
    if (auto status = run(insert_rename_); !status) {
        return status;
    }
    set_thread_comm_.bind(1, thread_id);
    set_thread_comm_.bind(2, new_comm);
    if (auto status = run(set_thread_comm_); !status) {
        return status;
    }
    set_main_thread_process_comm_.bind(1, thread_id);
    set_main_thread_process_comm_.bind(2, new_comm);
    return run(set_main_thread_process_comm_);
}

Status TraceWriter::set_thread_exit(std::int64_t thread_id, std::int64_t exit_ns) {
    set_thread_exit_.bind(1, thread_id);
    set_thread_exit_.bind(2, exit_ns);
    return run(set_thread_exit_);
}

Result<std::int64_t> TraceWriter::add_stream(std::int64_t process_id, std::int64_t handle) {
    insert_stream_.bind(1, process_id);
    insert_stream_.bind(2, handle);
    if (auto status = run(insert_stream_); !status) {
        return status.error();
    }
    return db_.last_insert_rowid();
}

Result<std::int64_t> TraceWriter::add_nccl_comm(std::int64_t process_id, std::int64_t handle) {
    insert_nccl_comm_.bind(1, process_id);
    insert_nccl_comm_.bind(2, handle);
    if (auto status = run(insert_nccl_comm_); !status) {
        return status.error();
    }
    return db_.last_insert_rowid();
}

Status TraceWriter::set_nccl_comm_ranks(std::int64_t comm_id, std::int64_t nranks,
                                        std::optional<std::int64_t> rank) {
    set_nccl_comm_ranks_.bind(1, nranks);
    set_nccl_comm_ranks_.bind(2, rank);
    set_nccl_comm_ranks_.bind(3, comm_id);
    return run(set_nccl_comm_ranks_);
}

Status TraceWriter::add_nccl_call(const NcclCallRecord& c) {
    insert_nccl_call_.bind(1, c.thread_id);
    insert_nccl_call_.bind(2, c.ts_ns);
    insert_nccl_call_.bind(3, c.op_id);
    insert_nccl_call_.bind(4, c.comm_id);
    insert_nccl_call_.bind(5, c.count);
    insert_nccl_call_.bind(6, c.datatype);
    insert_nccl_call_.bind(7, c.redop);
    insert_nccl_call_.bind(8, c.peer);
    return run(insert_nccl_call_);
}

Result<std::int64_t> TraceWriter::add_stack(std::int64_t process_id,
                                            const std::vector<StackFrameRecord>& frames,
                                            const std::optional<PythonStackRecord>& python) {
    insert_stack_.bind(1, process_id);
    insert_stack_.bind(
        2, python ? std::optional<std::int64_t>(python->truncated ? 1 : 0) : std::nullopt);
    if (auto status = run(insert_stack_); !status) {
        return status.error();
    }
    std::int64_t stack_id = db_.last_insert_rowid();
    for (const auto& frame : frames) {
        insert_frame_.bind(1, stack_id);
        insert_frame_.bind(2, frame.depth);
        insert_frame_.bind(3, frame.address);
        insert_frame_.bind(4, frame.module);
        insert_frame_.bind(5, frame.symbol);
        insert_frame_.bind(6, frame.offset);
        if (auto status = run(insert_frame_); !status) {
            return status.error();
        }
    }
    for (const auto& frame : python ? python->frames : std::vector<PythonFrameRecord>{}) {
        Statement& s = insert_python_frame_;
        s.bind(1, stack_id);
        s.bind(2, frame.depth);
        s.bind(3, frame.file);
        s.bind(4, frame.function);
        s.bind(5, frame.line);
        s.bind(6, frame.first_line);
        s.bind(7, frame.code_address);
        s.bind(8, frame.instr_offset);
        if (auto status = run(s); !status) {
            return status.error();
        }
    }
    return stack_id;
}

Status TraceWriter::add_switch_out_stack(const SwitchOutStackRecord& r) {
    Statement& s = insert_switch_out_stack_;
    s.bind(1, r.thread_id);
    s.bind(2, r.ts_ns);
    s.bind(3, r.stack_id);
    s.bind(4, static_cast<std::int64_t>(r.role));
    s.bind(5, static_cast<std::int64_t>(r.reason));
    s.bind(6, r.gpu_thread_id);
    s.bind(7, r.gpu_switch_out_ns);
    return run(s);
}

Status TraceWriter::add_cuda_call(const CudaCallRecord& c) {
    pending_calls_.push_back(c);
    return pending_calls_.size() < kCallsPerInsert ? Status{Ok{}} : flush_calls();
}

Status TraceWriter::flush_calls() {
    if (pending_calls_.size() == kCallsPerInsert) {
        for (std::size_t row = 0; row < kCallsPerInsert; ++row) {
            bind_cuda_call(insert_cuda_calls_, static_cast<int>(row) * kCudaCallColumns + 1,
                           pending_calls_[row]);
        }
        pending_calls_.clear();  // the statement holds the values; a commit in run() finds none
        return run(insert_cuda_calls_, static_cast<std::int64_t>(kCallsPerInsert));
    }
    // A partial batch (commit, finish), one row at a time. Taken out first: a batch commit
    // inside run() flushes again and must find nothing.
    std::vector<CudaCallRecord> calls;
    calls.swap(pending_calls_);
    for (const CudaCallRecord& c : calls) {
        bind_cuda_call(insert_cuda_call_, 1, c);
        if (auto status = run(insert_cuda_call_); !status) {
            return status;
        }
    }
    calls.clear();
    pending_calls_.swap(calls);  // keeps the buffer's capacity
    return Ok{};
}

Status TraceWriter::add_offcpu(const OffCpuRecord& o) {
    Statement& s = insert_offcpu_;
    s.bind(1, o.thread_id);
    s.bind(2, o.ts_ns);
    s.bind(3, o.dur_ns);
    s.bind(4, static_cast<std::int64_t>(o.reason));
    s.bind(5, o.runq_wait_ns);
    s.bind(6, o.cpu);
    s.bind(7, o.next_thread_id);
    s.bind(8, o.wake_context
                  ? std::optional<std::int64_t>(static_cast<std::int64_t>(*o.wake_context))
                  : std::nullopt);
    s.bind(9, o.waker_thread_id);
    s.bind(10, o.syscall_nr);
    s.bind(11, o.iowait ? std::optional<std::int64_t>(*o.iowait ? 1 : 0) : std::nullopt);
    s.bind(12, o.waits_for ? std::optional<std::int64_t>(static_cast<std::int64_t>(*o.waits_for))
                           : std::nullopt);
    return run(s);
}

Status TraceWriter::put_thread_sched_total(const ThreadSchedTotalRecord& t) {
    Statement& s = put_sched_total_;
    s.bind(1, t.thread_id);
    s.bind(2, t.voluntary_switches);
    s.bind(3, t.involuntary_switches);
    s.bind(4, t.oncpu_ns);
    s.bind(5, t.preempted_ns);
    s.bind(6, t.blocked_ns);
    s.bind(7, t.runq_wait_ns);
    s.bind(8, t.wakeups);
    return run(s);
}

Status TraceWriter::add_page_alloc(const PageAllocRecord& b) {
    add_page_alloc_.bind(1, b.process_id);
    add_page_alloc_.bind(2, b.bucket_ns);
    add_page_alloc_.bind(3, b.count);
    add_page_alloc_.bind(4, b.bytes);
    return run(add_page_alloc_);
}

Status TraceWriter::add_snapshot(const SnapshotRecord& r) {
    Statement& s = insert_snapshot_;
    s.bind(1, r.ts_ns);
    s.bind(2, r.cpu_busy_pct);
    s.bind(3, r.cpu_user_pct);
    s.bind(4, r.cpu_system_pct);
    s.bind(5, r.cpu_iowait_pct);
    s.bind(6, r.mem_total_bytes);
    s.bind(7, r.mem_available_bytes);
    s.bind(8, r.load1);
    s.bind(9, r.procs_running);
    s.bind(10, r.ctxt_per_s);
    return run(s);
}

Status TraceWriter::add_cgroup_sample(const CgroupSampleRecord& r) {
    Statement& s = add_cgroup_sample_;
    s.bind(1, r.ts_ns);
    s.bind(2, r.process_id);
    s.bind(3, r.version);
    s.bind(4, r.path);
    s.bind(5, r.limit_path);
    s.bind(6, r.quota_us);
    s.bind(7, r.period_us);
    s.bind(8, r.nr_periods);
    s.bind(9, r.nr_throttled);
    s.bind(10, r.throttled_ns);
    s.bind(11, r.cpus_allowed);
    return run(s);
}

Status TraceWriter::put_probe(const ProbeRecord& p) {
    put_probe_.bind(1, p.library);
    put_probe_.bind(2, p.symbol);
    put_probe_.bind(3, p.kind);
    put_probe_.bind(4, p.required ? 1 : 0);
    put_probe_.bind(5, p.attached ? 1 : 0);
    put_probe_.bind(6, p.error);
    return run(put_probe_);
}

Status TraceWriter::add_cuda_op(const CudaOpRecord& op) {
    insert_cuda_op_.bind(1, op.id);
    insert_cuda_op_.bind(2, op.name);
    insert_cuda_op_.bind(3, op.api);
    insert_cuda_op_.bind(4, op.category);
    if (auto status = run(insert_cuda_op_); !status) {
        return Error{"cannot add CUDA op " + op.name + " (id " + std::to_string(op.id) +
                     "): " + status.error().message +
                     " (an importer's ops take ids above those of schemas/trace.sql)"};
    }
    return Ok{};
}

Status TraceWriter::put_data_quality(const DataQualityRecord& d) {
    put_data_quality_.bind(1, d.source);
    put_data_quality_.bind(2, d.counter);
    put_data_quality_.bind(3, d.value);
    put_data_quality_.bind(4, severity_name(d.severity));
    put_data_quality_.bind(5, d.description);
    return run(put_data_quality_);
}

Status TraceWriter::add_event_count(const EventCountRecord& e) {
    Statement& s = insert_event_count_;
    s.bind(1, e.process_id);
    s.bind(2, e.bucket_ns);
    s.bind(3, e.bucket_dur_ns);
    s.bind(4, e.event);
    s.bind(5, e.count);
    s.bind(6, e.stored);
    s.bind(7, e.total_dur_ns);
    s.bind(8, e.max_dur_ns);
    return run(s);
}

Status TraceWriter::set_meta(const std::string& key, const std::string& value) {
    set_meta_.bind(1, key);
    set_meta_.bind(2, value);
    return run(set_meta_);
}

Status TraceWriter::finish(std::int64_t stop_ns) {
    auto stop = db_.prepare("UPDATE session SET stop_ns = ? WHERE id = 1");
    if (!stop) {
        return stop.error();
    }
    stop->bind(1, stop_ns);
    if (auto status = run(*stop); !status) {
        return status;
    }
    if (auto status = commit(); !status) {
        return status;
    }
    for (const char* sql : {"PRAGMA wal_checkpoint(TRUNCATE)", "PRAGMA journal_mode=DELETE"}) {
        if (auto status = db_.exec(sql); !status) {
            return write_failed("cannot close trace DB " + path_ +
                                " cleanly: " + status.error().message);
        }
    }
    space_reserve_.release();
    return Ok{};
}

}  // namespace causeway::tracedb
