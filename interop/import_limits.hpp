#pragma once
// The limits of an imported trace's evidence, as data_quality rows: one plain sentence per thing
// that could not be converted as it was ("sched_switch for 9 processes only as per-minute
// counts"), with the number of events it concerns and a severity.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "interop/event_counts.hpp"
#include "tracedb/records.hpp"

namespace causeway::interop {

// What the importer saw and did, counted.
struct ImportFacts {
    std::map<std::string, EventTotals> totals{};  // per event name
    std::int64_t cuda_calls = 0;
    std::int64_t offcpu_intervals = 0;
    std::int64_t offcpu_blocked_by_wakeup = 0;  // a wakeup of the thread was seen inside
    std::int64_t offcpu_clipped_at_start = 0;   // began before the session's first timestamp
    std::int64_t snapshots = 0;
    std::int64_t aggregate_rows = 0;
    std::int64_t aggregate_disagreements = 0;
    bool aggregates_skipped = false;          // multi-node file imported for one node
    bool aggregates_unattributed = false;     // multi-node file merged: no process for them
    std::vector<std::string> merged_nodes{};  // more than one when nodes were merged
    std::int64_t sessions = 0;
    std::string wal_unread{};
    std::int64_t unproven_processes = 0;
    std::int64_t stacks_unresolved = 0;
};

std::vector<tracedb::DataQualityRecord> describe_import_limits(const ImportFacts& facts);

// 1234567 -> "1,234,567".
std::string with_commas(std::int64_t value);

}  // namespace causeway::interop
