#include "analysis/model/python_stacks_loader.hpp"

#include <algorithm>

#include "analysis/model/text_caps.hpp"

namespace causeway::analysis {
namespace {

Status read_error(const tracedb::Database& db, const char* table) {
    return Error{std::string("cannot read table ") + table + ": " + db.last_error()};
}

Status load_frames(const tracedb::Database& db, TraceModel& model) {
    // Ordered by depth within each stack, so frames are appended innermost first.
    auto stmt = db.prepare(
        "SELECT stack_id, file, function, line FROM stack_python_frame ORDER BY stack_id, depth");
    if (!stmt) {
        return Error{"cannot read the trace: " + stmt.error().message};
    }
    int rc;
    while ((rc = stmt->step()) == SQLITE_ROW) {
        model.python_frames[stmt->column_int64(0)].push_back(
            {.file = optional_column_capped(*stmt, 1, kTextBytes),
             .function = optional_column_capped(*stmt, 2, kNameBytes),
             .line = stmt->column_optional_int64(3)});
    }
    return rc == SQLITE_DONE ? Status{Ok{}} : read_error(db, "stack_python_frame");
}

int lookup(const std::unordered_map<std::int64_t, int>& index, std::int64_t id) {
    auto it = index.find(id);
    return it == index.end() ? -1 : it->second;
}

Status load_switch_outs(const tracedb::Database& db,
                        const std::unordered_map<std::int64_t, int>& thread_index,
                        TraceModel& model) {
    auto stmt = db.prepare(
        "SELECT thread_id, ts_ns, stack_id, role, reason, gpu_thread_id, gpu_switch_out_ns FROM "
        "switch_out_stack");
    if (!stmt) {
        return Error{"cannot read the trace: " + stmt.error().message};
    }
    std::int64_t unknown = 0;
    auto known_thread = [&](std::int64_t id) {
        int thread = lookup(thread_index, id);
        unknown += thread < 0 ? 1 : 0;
        return thread;
    };
    int rc;
    while ((rc = stmt->step()) == SQLITE_ROW) {
        if (int thread = known_thread(stmt->column_int64(0)); thread >= 0) {
            auto gpu = stmt->column_optional_int64(5);
            model.switch_outs.push_back(
                {.thread_index = thread,
                 .ts_ns = stmt->column_int64(1),
                 .stack_id = stmt->column_int64(2),
                 .role = static_cast<tracedb::SwitchRole>(stmt->column_int64(3)),
                 .preempted = stmt->column_int64(4) !=
                              static_cast<std::int64_t>(tracedb::OffCpuReason::kBlocked),
                 .gpu_thread_index = gpu ? lookup(thread_index, *gpu) : -1,
                 .gpu_switch_out_ns = stmt->column_optional_int64(6).value_or(0)});
        }
    }
    if (rc != SQLITE_DONE) {
        return read_error(db, "switch_out_stack");
    }
    std::sort(model.switch_outs.begin(), model.switch_outs.end(),
              [](const SwitchOutSample& a, const SwitchOutSample& b) {
                  return a.thread_index != b.thread_index ? a.thread_index < b.thread_index
                                                          : a.ts_ns < b.ts_ns;
              });
    if (unknown > 0) {
        model.notes.push_back(std::to_string(unknown) +
                              " switch-out stacks name a thread that is not in the file; skipped");
    }
    return Ok{};
}

}  // namespace

Status load_python_stacks(const tracedb::Database& db, std::int64_t schema_version,
                          const std::unordered_map<std::int64_t, int>& thread_index,
                          TraceModel& model) {
    if (schema_version < 3) {
        return Ok{};
    }
    if (auto status = load_frames(db, model); !status) {
        return status;
    }
    return load_switch_outs(db, thread_index, model);
}

}  // namespace causeway::analysis
