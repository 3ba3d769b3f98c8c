#pragma once
// Reads cuda_call into columns in one pass. The table has no index, so reading it dominates the
// cost of every analysis: large tables are split by rowid range and read in parallel, one
// read-only connection per range, none of them the caller's (which can read other tables
// meanwhile).

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/trace_model.hpp"
#include "tracedb/reader.hpp"
#include "tracedb/result.hpp"

namespace causeway::analysis {

struct LoadedCalls {
    CudaCalls calls;                  // `enclosed` is left empty
    std::int64_t unknown_thread = 0;  // rows skipped: thread_id not in thread
    std::int64_t unknown_op = 0;      // rows skipped: op_id not in cuda_op
    std::int64_t last_end_ns = 0;     // latest ts_ns + dur_ns
};

// Reads the trace at `path`. `thread_of_id[id]` / `op_of_id[id]`: dense index for a DB id, -1
// when unknown.
Result<LoadedCalls> load_calls(const std::string& path,
                               const std::vector<std::int32_t>& thread_of_id,
                               const std::vector<std::int32_t>& op_of_id);

}  // namespace causeway::analysis
