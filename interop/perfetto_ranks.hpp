#pragma once
// The NCCL ranks of a trace in the Perfetto export: a track group per communicator whose ranks
// are all in the trace, a track per rank, the collectives aligned across them
// (analysis/measure/rank_alignment.hpp). Each collective is a slice on every rank's track from
// its arrival to the last rank's: what the rank waited for the others (zero on the last one).
// A collective that a rank never issued runs to the end of the recording on the ranks that did,
// and the absent rank's track marks its last call.

#include <cstdint>

#include "base/result.hpp"
#include "interop/json_event_writer.hpp"
#include "tracedb/reader.hpp"

namespace causeway::interop {

// Writes the groups as JSON processes first_pid, first_pid + 1, ...; returns the slices written
// (0 for a trace without NCCL ranks, which is not loaded for it).
Result<std::int64_t> write_rank_tracks(const tracedb::TraceReader& trace, JsonEventWriter& out,
                                       std::int64_t first_pid);

}  // namespace causeway::interop
