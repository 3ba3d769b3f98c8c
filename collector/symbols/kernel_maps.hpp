#pragma once
// Reading the aggregate maps the BPF programs keep: per-thread scheduling totals (rewritten,
// last write wins) and per-process page-allocation buckets (drained once finished).

#include <cstdint>
#include <optional>

#include "base/result.hpp"
#include "collector/events/thread_registry.hpp"
#include "tracedb/writer.hpp"

namespace causeway::collector {

tracedb::ThreadSchedTotalRecord to_totals_record(std::int64_t thread_id, const cw_sched_totals& t);

// Writes the current totals of every live traced thread whose row is known.
Status write_sched_totals(int thread_sched_fd, const ThreadRegistry& registry,
                          tracedb::TraceWriter& writer);

// Moves buckets older than `before_bucket` (all of them when empty) from the kernel map into the
// page_alloc table and deletes them from the map. Returns the buckets written (count).
Result<std::int64_t> drain_page_buckets(int page_buckets_fd, ThreadRegistry& registry,
                                        tracedb::TraceWriter& writer, std::int64_t bucket_ns,
                                        std::optional<std::uint64_t> before_bucket);

}  // namespace causeway::collector
