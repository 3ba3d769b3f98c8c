#include "analysis/measure/stacks.hpp"

#include <algorithm>
#include <unordered_map>

#include "analysis/measure/python_lines.hpp"
#include "analysis/model/saturating.hpp"
#include "analysis/model/text_caps.hpp"

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
        entry.frames.push_back({stmt->column_int64(0), optional_column_capped(*stmt, 1, kTextBytes),
                                optional_column_capped(*stmt, 2, kTextBytes),
                                stmt->column_optional_int64(3)});
    }
    return Ok{};
}

Status read_python_truncated(const tracedb::Database& db, StackEntry& entry) {
    auto stmt = db.prepare("SELECT python_truncated FROM stack WHERE id = ?");
    if (!stmt) {
        return stmt.error();
    }
    stmt->bind(1, entry.stack_id);
    if (stmt->step() == SQLITE_ROW) {
        if (auto truncated = stmt->column_optional_int64(0)) {
            entry.python_truncated = *truncated != 0;
        }
    }
    return Ok{};
}

// The Python side of a stack, from the model: its frames, the merge with the native frames and
// the user's line that leads it.
void add_python_frames(const TraceModel& model, StackEntry& entry) {
    if (auto it = model.python_frames.find(entry.stack_id); it != model.python_frames.end()) {
        entry.python_frames = it->second;
        LineTally lead;
        lead.add(entry.python_frames, entry.total_ns);
        entry.user_line = lead.top();
    }
    entry.merged = merge_frames(entry.frames, entry.python_frames);
}

}  // namespace

Result<StackReport> top_stacks(const tracedb::TraceReader& reader, const TraceModel& model,
                               const TraceFilter& filter, std::size_t limit) {
    StackReport report;
    report.stacks_in_trace = model.stack_count;
    if (model.stack_count == 0) {
        return report;
    }
    ResolvedFilter selected(model, filter);
    const CudaCalls& c = model.calls;
    std::unordered_map<std::int32_t, StackEntry> by_stack;
    for (std::size_t i = 0; i < c.size(); ++i) {
        if (c.stack_id[i] < 0 || !selected.call_selected(i)) {
            continue;
        }
        StackEntry& entry = by_stack[c.stack_id[i]];
        entry.stack_id = c.stack_id[i];
        entry.pid = model.process_of_thread(c.thread_index[i]).pid;
        const std::string& op = model.ops[static_cast<std::size_t>(c.op_index[i])].name;
        auto same = std::find_if(entry.ops.begin(), entry.ops.end(),
                                 [&](const StackOp& o) { return o.op == op; });
        if (same == entry.ops.end()) {
            entry.ops.push_back({op, 0, 0, 0});
            same = entry.ops.end() - 1;
        }
        ++same->calls;
        add_to(same->total_ns, c.dur_ns[i]);
        same->max_ns = std::max(same->max_ns, c.dur_ns[i]);
        ++entry.calls;
        add_to(entry.total_ns, c.dur_ns[i]);
    }
    for (auto& [id, entry] : by_stack) {
        report.calls_with_stack += entry.calls;
        std::sort(entry.ops.begin(), entry.ops.end(),
                  [](const StackOp& a, const StackOp& b) { return a.total_ns > b.total_ns; });
        report.stacks.push_back(std::move(entry));
    }
    // Ties broken by stack id, so the answer does not depend on the hash map's order.
    std::sort(
        report.stacks.begin(), report.stacks.end(), [](const StackEntry& a, const StackEntry& b) {
            return a.total_ns != b.total_ns ? a.total_ns > b.total_ns : a.stack_id < b.stack_id;
        });
    if (report.stacks.size() > limit) {
        report.stacks.resize(limit);
    }
    for (auto& entry : report.stacks) {
        if (auto status = read_frames(reader.db(), entry); !status) {
            return Error{"cannot read stack frames: " + status.error().message};
        }
        if (reader.schema_version() >= 3) {
            if (auto status = read_python_truncated(reader.db(), entry); !status) {
                return Error{"cannot read stack " + std::to_string(entry.stack_id) + ": " +
                             status.error().message};
            }
        }
        add_python_frames(model, entry);
    }
    return report;
}

}  // namespace causeway::analysis
