#include "analysis/model/python_stacks_loader.hpp"

#include <algorithm>

#include "analysis/model/text_caps.hpp"

namespace causeway::analysis {
namespace {

Status read_error(const tracedb::Database& db, const char* table) {
    return Error{std::string("cannot read table ") + table + ": " + db.last_error()};
}

Status load_frames(const tracedb::Database& db, const KnownStacks& stacks, TraceModel& model,
                   std::int64_t& orphans) {
    // Ordered by depth within each stack, so frames are appended innermost first.
    auto stmt = db.prepare(
        "SELECT stack_id, file, function, line FROM stack_python_frame ORDER BY stack_id, depth");
    if (!stmt) {
        return Error{"cannot read the trace: " + stmt.error().message};
    }
    int rc;
    while ((rc = stmt->step()) == SQLITE_ROW) {
        if (!stacks.contains(stmt->column_int64(0))) {
            ++orphans;
            continue;
        }
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
                        const KnownStacks& stacks, TraceModel& model, std::int64_t& orphans) {
    auto stmt = db.prepare(
        "SELECT thread_id, ts_ns, stack_id, role, reason, gpu_thread_id, gpu_switch_out_ns FROM "
        "switch_out_stack");
    if (!stmt) {
        return Error{"cannot read the trace: " + stmt.error().message};
    }
    int rc;
    while ((rc = stmt->step()) == SQLITE_ROW) {
        const int thread = lookup(thread_index, stmt->column_int64(0));
        if (thread < 0 || !stacks.contains(stmt->column_int64(2))) {
            ++orphans;
        } else {
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
    return Ok{};
}

// Above this many ids per stack row, a bitmap by id would waste memory: binary search instead.
constexpr std::int64_t kMostIdsPerStack = 64;

}  // namespace

Result<KnownStacks> KnownStacks::load(const tracedb::Database& db) {
    KnownStacks known;
    auto present = db.query_int64(
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'stack'");
    if (!present || *present == 0) {
        return known;
    }
    known.table_present_ = true;
    auto stmt = db.prepare("SELECT id FROM stack ORDER BY id");
    if (!stmt) {
        return Error{"cannot read the trace: " + stmt.error().message};
    }
    int rc;
    while ((rc = stmt->step()) == SQLITE_ROW) {
        known.ids_.push_back(stmt->column_int64(0));
    }
    if (rc != SQLITE_DONE) {
        return read_error(db, "stack").error();
    }
    const std::int64_t highest = known.ids_.empty() ? -1 : known.ids_.back();
    const auto rows = static_cast<std::int64_t>(known.ids_.size());
    if (highest >= 0 && (known.ids_.front() >= 0) && highest < kMostIdsPerStack * (rows + 1)) {
        known.present_.assign(static_cast<std::size_t>(highest) + 1, false);
        for (std::int64_t id : known.ids_) {
            known.present_[static_cast<std::size_t>(id)] = true;
        }
    }
    return known;
}

bool KnownStacks::contains(std::int64_t id) const {
    if (!present_.empty() || ids_.empty()) {
        return id >= 0 && static_cast<std::size_t>(id) < present_.size() &&
               present_[static_cast<std::size_t>(id)];
    }
    return std::binary_search(ids_.begin(), ids_.end(), id);
}

Status load_python_stacks(const tracedb::Database& db, std::int64_t schema_version,
                          const std::unordered_map<std::int64_t, int>& thread_index,
                          const KnownStacks& stacks, TraceModel& model) {
    if (schema_version < 3) {
        return Ok{};
    }
    std::int64_t orphan_frames = 0;
    std::int64_t orphan_samples = 0;
    if (auto status = load_frames(db, stacks, model, orphan_frames); !status) {
        return status;
    }
    if (auto status = load_switch_outs(db, thread_index, stacks, model, orphan_samples); !status) {
        return status;
    }
    if (orphan_frames + orphan_samples > 0) {
        model.data_quality.push_back(analysis_finding(
            tracedb::DataQualityCounter::kOrphanStackRows, orphan_frames + orphan_samples,
            std::to_string(orphan_frames) + " Python frames name a stack not in the file and " +
                std::to_string(orphan_samples) +
                " switch-out samples a thread or a stack not in the file: left out (the trace "
                "is damaged or was edited)"));
    }
    return Ok{};
}

std::int64_t forget_missing_call_stacks(const KnownStacks& stacks,
                                        NarrowColumn<std::int32_t, std::int16_t>& stack_ids) {
    if (!stacks.table_present()) {
        return 0;
    }
    return stack_ids.replace_if<std::int32_t{-1}>(
        [&stacks](std::int32_t id) { return id >= 0 && !stacks.contains(id); });
}

void report_missing_call_stacks(std::int64_t missing, std::vector<DataQualityItem>& data_quality) {
    if (missing > 0) {
        data_quality.push_back(analysis_finding(
            tracedb::DataQualityCounter::kMissingCallStacks, missing,
            std::to_string(missing) +
                " CUDA calls name a stack not in the file: read as calls without a stack (the "
                "trace is damaged or was edited)"));
    }
}

}  // namespace causeway::analysis
