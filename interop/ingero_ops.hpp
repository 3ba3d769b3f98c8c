#pragma once
// What each Ingero (source, op) pair means in the trace schema. Ingero numbers its ops per
// source (table ops: source 1 CUDA runtime, 3 host tracepoints, 4 CUDA driver, 5.. I/O and
// network); the importer turns runtime and driver ops into cuda_op ids (Causeway's own where the
// call is the same, new ids above 1000 otherwise) and host ops into the records they describe.

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "base/result.hpp"
#include "interop/ingero_source.hpp"
#include "tracedb/records.hpp"

namespace causeway::interop {

enum class IngeroEventKind {
    kCudaCall,     // a runtime or driver call: one cuda_call row
    kSchedSwitch,  // a traced thread back on a CPU after `duration` ns off it
    kSchedWakeup,  // arg1 = the woken thread
    kProcessFork,  // pid = parent, arg1 = child (a thread or a process: the tracepoint fires for
                   // both)
    kProcessExit,  // pid/tid = the exiting task
    kProcessExec,  // pid/tid = the task that called execve
    kPageAlloc,    // arg0 = bytes
    kCountOnly,    // nothing in the trace schema holds it (block I/O, sockets, OOM, pods...)
};

struct IngeroOpInfo {
    IngeroEventKind kind = IngeroEventKind::kCountOnly;
    std::string event{};  // name in cuda_op / event_count: 'cudaStreamSynchronize', 'sched_switch'
    std::string
        area{};  // data_quality source: 'cuda', 'sched', 'page_alloc', 'lifecycle', 'net'...
    std::int64_t cuda_op_id = 0;     // kCudaCall only
    bool arg0_is_bytes = false;      // kCudaCall: allocations and copies carry their size in arg0
    bool arg1_is_copy_kind = false;  // kCudaCall: runtime copies carry cudaMemcpyKind in arg1
};

// A cuda_op row the importer adds for an Ingero op that Causeway does not record itself; its id
// is above 1000, as the schema reserves for importers.
using ImportedCudaOp = tracedb::CudaOpRecord;

class IngeroOpTable {
  public:
    // Reads the file's sources and ops tables and every (source, op) pair its events use.
    static Result<IngeroOpTable> load(const IngeroSource& source);

    // Every pair in the file's events is known: unlisted ones are kCountOnly "source7.op3".
    const IngeroOpInfo& classify(std::int64_t source, std::int64_t op) const;
    // The (source, op) pairs of a kind, for SQL filters (usually one pair, none when absent).
    std::vector<std::pair<std::int64_t, std::int64_t>> pairs_of(IngeroEventKind kind) const;
    const std::vector<ImportedCudaOp>& imported_cuda_ops() const { return imported_ops_; }

  private:
    std::map<std::pair<std::int64_t, std::int64_t>, IngeroOpInfo> ops_;
    std::vector<ImportedCudaOp> imported_ops_;
};

// "source = 3 AND op = 1 OR ..." for the pairs; "0" when there are none.
std::string sql_match(const std::vector<std::pair<std::int64_t, std::int64_t>>& pairs);

}  // namespace causeway::interop
