#pragma once
// Reads cuda_call into columns in one pass. The table has no index, so reading it dominates the
// cost of every analysis: large tables are split into parts read in parallel, none of them on
// the caller's connection (which can read other tables meanwhile). A finished trace is read from
// its b-tree pages (tracedb/btree_scan.hpp), anything else with SQL; either way the columns are
// sized by the number of rows, never by their rowids.

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/model/plausible_values.hpp"
#include "analysis/model/trace_model.hpp"
#include "base/result.hpp"
#include "tracedb/btree_scan.hpp"
#include "tracedb/reader.hpp"

namespace causeway::analysis {

// A minted DB id (thread.id, cuda_op.id) to its dense index, -1 when unknown. Ids are small in
// files the collector writes, so most lookups are one vector access; any other id (a file whose
// ids are sparse or huge) is found in the map.
class IdLookup {
  public:
    explicit IdLookup(const std::unordered_map<std::int64_t, int>& index);
    std::int32_t operator()(std::int64_t id) const {
        if (id >= 0 && static_cast<std::uint64_t>(id) < dense_.size()) {
            return dense_[static_cast<std::size_t>(id)];
        }
        auto it = sparse_.find(id);
        return it == sparse_.end() ? -1 : it->second;
    }

  private:
    std::vector<std::int32_t> dense_;
    std::unordered_map<std::int64_t, int> sparse_;  // ids beyond dense_
};

// A call left out because it cannot have happened as stored, as an example for data quality.
struct CallExample {
    std::int64_t thread_id = 0;
    std::int64_t op_id = 0;
    std::int64_t ts_ns = 0;
    std::int64_t dur_ns = 0;
    std::int64_t bytes = 0;
    std::int64_t ret = 0;
    std::int64_t stack_id = 0;
};

struct LoadedCalls {
    LoadedCallColumns calls;
    std::int64_t unknown_thread = 0;   // rows skipped: thread_id not in thread
    std::int64_t unknown_op = 0;       // rows skipped: op_id not in cuda_op
    std::int64_t impossible_time = 0;  // rows skipped: not an interval inside the session
    // Rows kept with a value that cannot be read as unknown: bytes outside 0 .. 1 PiB, a stack id
    // outside 0 .. INT32_MAX (both then -1), a return code outside 32 bits (then the nearest).
    std::int64_t impossible_values = 0;
    std::optional<CallExample> first_impossible_time;
    std::optional<CallExample> first_impossible_value;
    std::int64_t last_end_ns = 0;  // latest ts_ns + dur_ns of the rows kept
    // Why the rows were read with SQL instead of from the pages; empty when from the pages.
    std::optional<tracedb::ScanRefusal> read_with_sql_because;
};

// Reads the trace at `path`.
Result<LoadedCalls> load_calls(const std::string& path, const IdLookup& thread_of_id,
                               const IdLookup& op_of_id, const PlausibleValues& plausible);

}  // namespace causeway::analysis
