#include "interop/perfetto_export.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <tuple>

#include "analysis/measure/python_lines.hpp"
#include "analysis/model/text_caps.hpp"
#include "interop/json_event_writer.hpp"
#include "interop/perfetto_ranks.hpp"
#include "interop/track_lanes.hpp"

namespace causeway::interop {
namespace {

using nlohmann::json;
using tracedb::Statement;

enum class TrackKind { kCuda = 0, kOffCpu = 1 };

const char* copy_kind_name(std::int64_t kind) {
    static const char* kNames[] = {"HtoH", "HtoD", "DtoH", "DtoD", "default"};
    return kind >= 0 && kind < 5 ? kNames[kind] : "unknown";
}

class PerfettoExporter {
  public:
    PerfettoExporter(const tracedb::TraceReader& trace, JsonEventWriter& out)
        : trace_(trace), out_(out) {}

    Result<PerfettoExportSummary> run();

  private:
    Result<Statement> query(const std::string& sql) const;
    Status write_processes();
    std::int64_t track(std::int64_t thread_id, TrackKind kind, std::size_t lane);
    Status load_python_stacks();
    // Adds the Python line and folded Python stack of `stack_id` to a slice's args, if it has one.
    void add_python_args(std::optional<std::int64_t> stack_id, json& args) const;
    Status write_cuda_calls();
    Status write_offcpu();
    Status write_snapshots();
    // A counter that holds `values` from bucket_ns for bucket_dur_ns, then 0 unless the next
    // bucket of the same series starts right there.
    Status write_bucket_series(const std::string& sql, bool has_duration_column);
    json other_data() const;

    struct Thread {
        std::int64_t process_id = 0;
        std::int64_t tid = 0;
        std::string comm;
    };

    const tracedb::TraceReader& trace_;
    JsonEventWriter& out_;
    std::map<std::int64_t, Thread> threads_;  // thread.id -> identity
    std::map<std::tuple<std::int64_t, TrackKind, std::size_t>, std::int64_t> tracks_;
    std::int64_t system_pid_ = 0;  // the track group of system-wide counters
    std::int64_t page_bucket_ns_ = 0;
    std::map<std::int64_t, json> python_args_;  // stack.id -> args of its Python frames
    PerfettoExportSummary summary_;
};

Result<Statement> PerfettoExporter::query(const std::string& sql) const {
    auto stmt = trace_.db().prepare(sql);
    if (!stmt) {
        return Error{"cannot read " + trace_.path() + ": " + stmt.error().message};
    }
    return stmt;
}

Status PerfettoExporter::write_processes() {
    auto processes = query("SELECT id, pid, comm, in_tree FROM process ORDER BY id");
    if (!processes) {
        return processes.error();
    }
    while (processes->step() == SQLITE_ROW) {
        const std::int64_t id = processes->column_int64(0);
        const bool in_tree = processes->column_int64(3) != 0;
        // JSON pids are the minted process ids: a reused kernel pid stays a separate process.
        out_.process_name(id, processes->column_text(2) + " [pid " +
                                  std::to_string(processes->column_int64(1)) + "]" +
                                  (in_tree ? "" : " (outside the traced tree)"));
        out_.process_sort_index(id, (in_tree ? 0 : 1'000'000'000) + id);
        system_pid_ = std::max(system_pid_, id + 1);
    }
    out_.process_name(system_pid_, "System (whole machine)");
    out_.process_sort_index(system_pid_, -1);

    auto threads = query("SELECT id, process_id, tid, comm FROM thread");
    if (!threads) {
        return threads.error();
    }
    while (threads->step() == SQLITE_ROW) {
        threads_[threads->column_int64(0)] = {threads->column_int64(1), threads->column_int64(2),
                                              threads->column_text(3)};
    }
    auto bucket = trace_.db().query_int64("SELECT page_bucket_ns FROM session");
    page_bucket_ns_ = bucket ? *bucket : 0;
    return Ok{};
}

// The JSON tid of a thread's lane, named and ordered when first used.
std::int64_t PerfettoExporter::track(std::int64_t thread_id, TrackKind kind, std::size_t lane) {
    auto key = std::make_tuple(thread_id, kind, lane);
    if (auto it = tracks_.find(key); it != tracks_.end()) {
        return it->second;
    }
    const std::int64_t json_tid = static_cast<std::int64_t>(tracks_.size()) + 1;
    tracks_[key] = json_tid;
    const Thread& thread = threads_.at(thread_id);
    std::string name = thread.comm + " [tid " + std::to_string(thread.tid) + "]";
    if (kind == TrackKind::kOffCpu) {
        name += " off-CPU";
    }
    if (lane > 0) {
        name += " (overlapping " + std::to_string(lane) + ")";
        ++summary_.overlap_lanes;
    }
    out_.thread_name(thread.process_id, json_tid, name);
    out_.thread_sort_index(
        thread.process_id, json_tid,
        thread_id * 1000 + static_cast<std::int64_t>(kind) * 100 + static_cast<std::int64_t>(lane));
    ++summary_.tracks;
    return json_tid;
}

Status PerfettoExporter::load_python_stacks() {
    if (trace_.schema_version() < 3) {
        return Ok{};
    }
    auto rows = query(
        "SELECT stack_id, file, function, line FROM stack_python_frame ORDER BY stack_id, depth");
    if (!rows) {
        return rows.error();
    }
    std::map<std::int64_t, std::vector<analysis::PythonFrame>> frames;
    while (rows->step() == SQLITE_ROW) {
        frames[rows->column_int64(0)].push_back(
            {.file = analysis::optional_column_capped(*rows, 1, analysis::kTextBytes),
             .function = analysis::optional_column_capped(*rows, 2, analysis::kNameBytes),
             .line = rows->column_optional_int64(3)});
    }
    for (const auto& [stack_id, stack] : frames) {
        json args = {{"python_stack", analysis::folded_python_stack(stack)}};
        if (auto line = analysis::stack_line(stack)) {
            args["python_line"] = analysis::describe_line(*line);
            args["python_file"] = line->file;
        }
        python_args_[stack_id] = std::move(args);
    }
    return Ok{};
}

void PerfettoExporter::add_python_args(std::optional<std::int64_t> stack_id, json& args) const {
    if (!stack_id) {
        return;
    }
    if (auto it = python_args_.find(*stack_id); it != python_args_.end()) {
        args.update(it->second);
    }
}

Status PerfettoExporter::write_cuda_calls() {
    auto calls = query(
        "SELECT c.thread_id, coalesce(o.name, 'cuda op ' || c.op_id), coalesce(o.category, "
        "'unknown'), c.ts_ns, c.dur_ns, c.bytes, c.copy_kind, c.host_pinned, s.handle, c.ret, "
        "c.stack_id FROM cuda_call c LEFT JOIN cuda_op o ON o.id = c.op_id "
        "LEFT JOIN cuda_stream s ON s.id = c.stream_id "
        "ORDER BY c.thread_id, c.ts_ns, c.dur_ns DESC");
    if (!calls) {
        return calls.error();
    }
    TrackLanes lanes;
    std::optional<std::int64_t> current_thread;
    while (calls->step() == SQLITE_ROW) {
        const std::int64_t thread_id = calls->column_int64(0);
        if (thread_id != current_thread) {
            lanes.clear();
            current_thread = thread_id;
        }
        const std::int64_t ts = calls->column_int64(3), dur = calls->column_int64(4);
        json args = {{"ret", calls->column_int64(9)}};
        if (auto bytes = calls->column_optional_int64(5)) {
            args["bytes"] = *bytes;
        }
        if (auto kind = calls->column_optional_int64(6)) {
            args["copy_kind"] = copy_kind_name(*kind);
        }
        if (auto pinned = calls->column_optional_int64(7)) {
            args["host_pinned"] = *pinned != 0;
        }
        if (auto stream = calls->column_optional_int64(8)) {
            args["stream"] = *stream;
        }
        auto stack = calls->column_optional_int64(10);
        if (stack) {
            args["stack_id"] = *stack;
        }
        add_python_args(stack, args);
        const auto lane = lanes.place(ts, ts + dur);
        out_.slice(threads_.at(thread_id).process_id, track(thread_id, TrackKind::kCuda, lane), ts,
                   dur, calls->column_text(1), "cuda." + calls->column_text(2), args);
        ++summary_.cuda_slices;
    }
    return Ok{};
}

Status PerfettoExporter::write_offcpu() {
    // Schema 3: where the thread's Python code was when it left the CPU (switch_out_stack).
    const std::string switch_out_stack =
        trace_.schema_version() >= 3
            ? "(SELECT w.stack_id FROM switch_out_stack w WHERE w.thread_id = o.thread_id AND "
              "w.ts_ns = o.ts_ns LIMIT 1)"
            : "NULL";
    auto intervals = query(
        "SELECT o.thread_id, o.ts_ns, o.dur_ns, o.reason, o.runq_wait_ns, o.cpu, n.tid, n.comm, "
        "p.pid, " +
        switch_out_stack +
        " FROM offcpu o LEFT JOIN thread n ON n.id = o.next_thread_id "
        "LEFT JOIN process p ON p.id = n.process_id ORDER BY o.thread_id, o.ts_ns, o.dur_ns DESC");
    if (!intervals) {
        return intervals.error();
    }
    TrackLanes lanes;
    std::optional<std::int64_t> current_thread;
    while (intervals->step() == SQLITE_ROW) {
        const std::int64_t thread_id = intervals->column_int64(0);
        if (thread_id != current_thread) {
            lanes.clear();
            current_thread = thread_id;
        }
        const std::int64_t ts = intervals->column_int64(1), dur = intervals->column_int64(2);
        const auto reason_code = static_cast<tracedb::OffCpuReason>(intervals->column_int64(3));
        const char* reason = reason_code == tracedb::OffCpuReason::kPreempted   ? "preempted"
                             : reason_code == tracedb::OffCpuReason::kThrottled ? "throttled"
                                                                                : "blocked";
        json args = {{"reason", reason},
                     {"runq_wait_us", static_cast<double>(intervals->column_int64(4)) / 1000.0}};
        if (intervals->column_int64(5) >= 0) {
            args["cpu"] = intervals->column_int64(5);
        }
        if (auto competitor_tid = intervals->column_optional_int64(6);
            competitor_tid && reason_code != tracedb::OffCpuReason::kThrottled) {
            args["competitor"] = intervals->column_text(7);
            args["competitor_tid"] = *competitor_tid;
            args["competitor_pid"] = intervals->column_int64(8);
        } else {
            args["competitor"] = nullptr;
        }
        add_python_args(intervals->column_optional_int64(9), args);
        const auto lane = lanes.place(ts, ts + dur);
        out_.slice(threads_.at(thread_id).process_id, track(thread_id, TrackKind::kOffCpu, lane),
                   ts, dur, std::string("off-CPU: ") + reason, "sched", args);
        ++summary_.offcpu_slices;
    }
    return Ok{};
}

Status PerfettoExporter::write_snapshots() {
    auto snapshots = query(
        "SELECT ts_ns, cpu_busy_pct, cpu_user_pct, cpu_system_pct, cpu_iowait_pct, load1, "
        "mem_available_bytes FROM system_snapshot ORDER BY ts_ns");
    if (!snapshots) {
        return snapshots.error();
    }
    while (snapshots->step() == SQLITE_ROW) {
        const std::int64_t ts = snapshots->column_int64(0);
        out_.counter(system_pid_, ts, "CPU %",
                     {{"busy", snapshots->column_double(1)},
                      {"user", snapshots->column_double(2)},
                      {"system", snapshots->column_double(3)},
                      {"iowait", snapshots->column_double(4)}});
        out_.counter(system_pid_, ts, "load average (1 min)",
                     {{"load1", snapshots->column_double(5)}});
        out_.counter(system_pid_, ts, "memory available (bytes)",
                     {{"bytes", snapshots->column_int64(6)}});
        summary_.counter_samples += 3;
    }
    return Ok{};
}

// Rows: process_id (NULL: system), series name, bucket_ns, [bucket_dur_ns,] value columns.
Status PerfettoExporter::write_bucket_series(const std::string& sql, bool has_duration_column) {
    auto rows = query(sql);
    if (!rows) {
        return rows.error();
    }
    const int first_value = has_duration_column ? 4 : 3;
    const int columns = sqlite3_column_count(rows->get());
    // The sample that ends the previous bucket, written once it is known whether the next
    // bucket of the same series starts where it ends.
    struct Pending {
        bool active = false;
        std::int64_t pid = 0;
        std::string name;
        std::int64_t end_ns = 0;
    } pending;
    json zero = json::object();
    for (int col = first_value; col < columns; ++col) {
        zero[sqlite3_column_name(rows->get(), col)] = 0;
    }
    auto close_pending = [&](std::optional<std::int64_t> next_start) {
        if (pending.active && next_start != pending.end_ns) {
            out_.counter(pending.pid, pending.end_ns, pending.name, zero);
            ++summary_.counter_samples;
        }
        pending.active = false;
    };
    while (rows->step() == SQLITE_ROW) {
        const std::int64_t pid = rows->column_is_null(0) ? system_pid_ : rows->column_int64(0);
        const std::string name = rows->column_text(1) + " per bucket";
        const std::int64_t start = rows->column_int64(2);
        const std::int64_t width = has_duration_column ? rows->column_int64(3) : page_bucket_ns_;
        json values = json::object();
        for (int col = first_value; col < columns; ++col) {
            values[sqlite3_column_name(rows->get(), col)] = rows->column_int64(col);
        }
        const bool same_series = pending.active && pending.pid == pid && pending.name == name;
        close_pending(same_series ? std::optional(start) : std::nullopt);
        out_.counter(pid, start, name, values);
        ++summary_.counter_samples;
        pending = {true, pid, name, start + width};
    }
    close_pending(std::nullopt);
    return Ok{};
}

json PerfettoExporter::other_data() const {
    json data = {{"exported_by", "causeway export --format perfetto"},
                 {"trace", trace_.path()},
                 {"time_zero", "session start (ns since start = 0)"}};
    auto session = trace_.db().prepare(
        "SELECT source, host, kernel, cpu_count, coalesce(gpu, ''), coalesce(command_line, ''), "
        "start_wall_ns FROM session");
    if (session && session->step() == SQLITE_ROW) {
        data["source"] = session->column_text(0);
        data["host"] = session->column_text(1);
        data["kernel"] = session->column_text(2);
        data["cpu_count"] = session->column_int64(3);
        data["gpu"] = session->column_text(4);
        data["command_line"] = session->column_text(5);
        data["start_wall_ns"] = session->column_int64(6);
    }
    return data;
}

Result<PerfettoExportSummary> PerfettoExporter::run() {
    if (auto status = write_processes(); !status) {
        return status.error();
    }
    for (auto step : {&PerfettoExporter::load_python_stacks, &PerfettoExporter::write_cuda_calls,
                      &PerfettoExporter::write_offcpu, &PerfettoExporter::write_snapshots}) {
        if (auto status = (this->*step)(); !status) {
            return status.error();
        }
    }
    auto collectives = write_rank_tracks(trace_, out_, system_pid_ + 1);
    if (!collectives) {
        return collectives.error();
    }
    summary_.collective_slices = *collectives;
    const std::pair<const char*, bool> series[] = {
        {"SELECT process_id, 'page allocations', bucket_ns, count, bytes FROM page_alloc "
         "ORDER BY process_id, bucket_ns",
         false},
        {"SELECT process_id, event, bucket_ns, bucket_dur_ns, count, stored FROM event_count "
         "ORDER BY process_id, event, bucket_ns",
         true},
    };
    for (const auto& [sql, has_duration] : series) {
        if (auto status = write_bucket_series(sql, has_duration); !status) {
            return status.error();
        }
    }
    if (auto status = out_.finish(other_data()); !status) {
        return status.error();
    }
    return summary_;
}

}  // namespace

Result<PerfettoExportSummary> export_perfetto(const tracedb::TraceReader& trace,
                                              const std::string& out_path) {
    auto out = JsonEventWriter::create(out_path);
    if (!out) {
        return out.error();
    }
    PerfettoExporter exporter(trace, *out);
    auto summary = exporter.run();
    if (!summary) {
        std::error_code ignored;
        std::filesystem::remove(out_path, ignored);
    }
    return summary;
}

}  // namespace causeway::interop
