#pragma once
// Reads the Python frames of stacks (stack_python_frame) and the Python stacks taken at
// switch-out (switch_out_stack) of a schema-3 trace into the model. Older files have neither
// table and load as traces without Python frames.

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "analysis/model/trace_model.hpp"
#include "tracedb/sqlite.hpp"

namespace causeway::analysis {

// The ids of the file's stack rows, for telling references to missing stacks.
class KnownStacks {
  public:
    // A file without a stack table (an imported trace) knows no stacks and has none to miss.
    static Result<KnownStacks> load(const tracedb::Database& db);
    bool contains(std::int64_t id) const;
    bool table_present() const { return table_present_; }

  private:
    bool table_present_ = false;
    std::vector<std::int64_t> ids_;  // sorted
    std::vector<bool> present_;      // by id, while ids are dense enough for it
};

// `thread_index` maps thread.id to the model's thread index. Python frames of a stack not in the
// file, and switch-out samples of a thread or a stack not in the file, are left out and counted
// in an error data-quality row (analysis/orphan_stack_rows).
Status load_python_stacks(const tracedb::Database& db, std::int64_t schema_version,
                          const std::unordered_map<std::int64_t, int>& thread_index,
                          const KnownStacks& stacks, TraceModel& model);

// CUDA calls whose stack is not in the file read as calls without a stack: sets their loaded
// stack ids to -1 and returns how many there were, which report_missing_call_stacks counts in an
// error data-quality row (analysis/missing_call_stacks).
std::int64_t forget_missing_call_stacks(const KnownStacks& stacks,
                                        NarrowColumn<std::int32_t, std::int16_t>& stack_ids);
void report_missing_call_stacks(std::int64_t missing, std::vector<DataQualityItem>& data_quality);

}  // namespace causeway::analysis
