#pragma once
// Reads the Python frames of stacks (stack_python_frame) and the Python stacks taken at
// switch-out (switch_out_stack) of a schema-3 trace into the model. Older files have neither
// table and load as traces without Python frames.

#include <cstdint>
#include <unordered_map>

#include "analysis/model/trace_model.hpp"
#include "tracedb/sqlite.hpp"

namespace causeway::analysis {

// `thread_index` maps thread.id to the model's thread index. Samples of threads not in the file
// are skipped and counted in the model's notes.
Status load_python_stacks(const tracedb::Database& db, std::int64_t schema_version,
                          const std::unordered_map<std::int64_t, int>& thread_index,
                          TraceModel& model);

}  // namespace causeway::analysis
