#include "analysis/stacks.hpp"

#include <algorithm>
#include <map>

namespace causeway::analysis {
namespace {

Status read_frames(const tracedb::Database& db, StackEntry& entry) {
    auto stmt = db.prepare(
        "SELECT address, module, symbol, offset FROM stack_frame WHERE stack_id = ? "
        "ORDER BY depth");
    if (!stmt) {
        return stmt.error();
    }
    stmt->bind(1, entry.stack_id);
    while (stmt->step() == SQLITE_ROW) {
        entry.frames.push_back({stmt->column_int64(0), stmt->column_optional_text(1),
                                stmt->column_optional_text(2), stmt->column_optional_int64(3)});
    }
    return Ok{};
}

}  // namespace

Result<StackReport> top_stacks(const tracedb::TraceReader& reader, const TraceModel& model,
                               const TraceFilter& filter, std::size_t limit) {
    const tracedb::Database& db = reader.db();
    StackReport report;
    report.stacks_in_trace = model.stack_count;
    if (model.stack_count == 0) {
        return report;
    }
    ResolvedFilter selected(model, filter);
    std::map<std::int64_t, int> thread_of_id;
    for (std::size_t t = 0; t < model.threads.size(); ++t) {
        thread_of_id[model.threads[t].id] = static_cast<int>(t);
    }
    auto stmt = db.prepare(
        "SELECT stack_id, thread_id, op_id, count(*), sum(dur_ns), max(dur_ns) FROM cuda_call "
        "WHERE stack_id IS NOT NULL AND ts_ns >= ? AND ts_ns < ? "
        "GROUP BY stack_id, thread_id, op_id");
    if (!stmt) {
        return stmt.error();
    }
    const TimeWindow& window = selected.window();
    stmt->bind(1, selected.windowed() ? window.start_ns : INT64_MIN);
    stmt->bind(2, selected.windowed() ? window.end_ns : INT64_MAX);
    std::map<std::int64_t, StackEntry> by_stack;
    int rc;
    while ((rc = stmt->step()) == SQLITE_ROW) {
        auto thread = thread_of_id.find(stmt->column_int64(1));
        int op = -1;
        for (std::size_t o = 0; o < model.ops.size(); ++o) {
            op = model.ops[o].id == stmt->column_int64(2) ? static_cast<int>(o) : op;
        }
        if (thread == thread_of_id.end() || op < 0 || !selected.thread_selected(thread->second) ||
            !selected.op_selected(op)) {
            continue;
        }
        StackEntry& entry = by_stack[stmt->column_int64(0)];
        entry.stack_id = stmt->column_int64(0);
        entry.pid = model.process_of_thread(thread->second).pid;
        StackOp part{model.ops[static_cast<std::size_t>(op)].name, stmt->column_int64(3),
                     stmt->column_int64(4), stmt->column_int64(5)};
        entry.calls += part.calls;
        entry.total_ns += part.total_ns;
        auto same = std::find_if(entry.ops.begin(), entry.ops.end(),
                                 [&](const StackOp& o) { return o.op == part.op; });
        if (same == entry.ops.end()) {
            entry.ops.push_back(part);
        } else {
            same->calls += part.calls;
            same->total_ns += part.total_ns;
            same->max_ns = std::max(same->max_ns, part.max_ns);
        }
    }
    if (rc != SQLITE_DONE) {
        return Error{"cannot read stacks: " + db.last_error()};
    }
    for (auto& [id, entry] : by_stack) {
        report.calls_with_stack += entry.calls;
        std::sort(entry.ops.begin(), entry.ops.end(),
                  [](const StackOp& a, const StackOp& b) { return a.total_ns > b.total_ns; });
        report.stacks.push_back(std::move(entry));
    }
    std::sort(report.stacks.begin(), report.stacks.end(),
              [](const StackEntry& a, const StackEntry& b) { return a.total_ns > b.total_ns; });
    if (report.stacks.size() > limit) {
        report.stacks.resize(limit);
    }
    for (auto& entry : report.stacks) {
        if (auto status = read_frames(db, entry); !status) {
            return Error{"cannot read stack frames: " + status.error().message};
        }
    }
    return report;
}

}  // namespace causeway::analysis
