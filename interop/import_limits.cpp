#include "interop/import_limits.hpp"

#include "tracedb/data_quality_counters.hpp"

namespace causeway::interop {
namespace {

using tracedb::counter_record;
using tracedb::DataQualityCounter;
using tracedb::DataQualityRecord;

std::string plural(std::int64_t n, const char* one, const char* many) {
    return with_commas(n) + " " + (n == 1 ? one : many);
}

std::string processes_phrase(const EventTotals& total) {
    return plural(static_cast<std::int64_t>(total.processes_with_counts_only.size()), "process",
                  "processes");
}

// One row per event that Ingero (or this schema) keeps only as per-minute counts.
DataQualityRecord counts_only(const std::string& event, const EventTotals& total) {
    const std::int64_t missing = total.count - total.records;
    const std::string header =
        event + " for " + processes_phrase(total) + " only as per-minute counts: ";
    auto row = [&](DataQualityCounter counter, std::string description) {
        return tracedb::event_counter_record(counter, total.op.area, event, missing,
                                             std::move(description));
    };
    switch (total.op.kind) {
        case IngeroEventKind::kCudaCall:
            return row(DataQualityCounter::kCallsCountsOnly,
                       header + with_commas(missing) + " of " + with_commas(total.count) +
                           " calls were not stored by Ingero; per-call statistics describe the " +
                           with_commas(total.records) +
                           " stored calls, which need not be a representative sample");
        case IngeroEventKind::kSchedSwitch:
            return row(
                DataQualityCounter::kSwitchesCountsOnly,
                header + with_commas(missing) + " of " + with_commas(total.count) +
                    " context switches have no interval, so they cannot show that a given call was "
                    "preempted; they show only how often, and how long in total, those processes "
                    "were off a CPU");
        case IngeroEventKind::kPageAlloc:
            return row(DataQualityCounter::kPageAllocPerMinute,
                       header + with_commas(total.count) +
                           " allocations; page_alloc rows are 60 s buckets aligned to "
                           "Ingero's wall-clock minutes (the first starts at the session "
                           "start), not the collector's 100 ms");
        case IngeroEventKind::kSchedWakeup:
            return row(DataQualityCounter::kEventsCountsOnly,
                       header + with_commas(missing) +
                           " wakeups; the trace schema keeps no wakeup rows (stored ones "
                           "were used to tell blocked off-CPU intervals)");
        default:
            return row(DataQualityCounter::kEventsCountsOnly,
                       header + with_commas(missing) + " of " + with_commas(total.count) +
                           " events, in event_count; " +
                           (total.op.kind == IngeroEventKind::kCountOnly
                                ? "the trace schema has no table for them"
                                : "they are not in the process and thread tables"));
    }
}

}  // namespace

std::string with_commas(std::int64_t value) {
    std::string digits = std::to_string(value < 0 ? -value : value);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) {
            out += ',';
        }
        out += digits[i];
    }
    return value < 0 ? "-" + out : out;
}

std::vector<DataQualityRecord> describe_import_limits(const ImportFacts& f) {
    std::vector<DataQualityRecord> rows;
    if (!f.wal_unread.empty()) {
        rows.push_back(counter_record(DataQualityCounter::kWalUnread, 1, f.wal_unread));
    }
    if (f.merged_nodes.size() > 1) {
        std::string names;
        for (const auto& node : f.merged_nodes) {
            names += (names.empty() ? "" : ", ") + node;
        }
        rows.push_back(counter_record(
            DataQualityCounter::kNodesMerged, static_cast<std::int64_t>(f.merged_nodes.size()),
            std::to_string(f.merged_nodes.size()) + " nodes (" + names +
                ") merged into one trace: their processes are kept apart but their clocks were "
                "not compared; import one with --node NAME for a per-node diagnosis"));
    } else if (f.sessions > 1) {
        rows.push_back(
            counter_record(DataQualityCounter::kSessionsMerged, f.sessions,
                           std::to_string(f.sessions) +
                               " Ingero sessions merged into one trace; the gaps between them hold "
                               "no data"));
    }
    for (const auto& [event, total] : f.totals) {
        if (total.count > total.records) {
            rows.push_back(counts_only(event, total));
        }
    }
    const std::int64_t reason_unknown = f.offcpu_intervals - f.offcpu_blocked_by_wakeup;
    if (reason_unknown > 0) {
        rows.push_back(counter_record(
            DataQualityCounter::kOffcpuReasonUnknown, reason_unknown,
            with_commas(reason_unknown) + " of " + with_commas(f.offcpu_intervals) +
                " off-CPU intervals (from Ingero sched_switch) do not say whether the thread "
                "was preempted or blocked: stored as reason=blocked with runq_wait_ns=0. A call "
                "that overlaps them was off a CPU, but CPU contention cannot be proven from "
                "them; " +
                with_commas(f.offcpu_blocked_by_wakeup) +
                " are known to be blocked (a wakeup was recorded inside them)"));
    }
    if (f.offcpu_intervals > 0) {
        rows.push_back(
            counter_record(DataQualityCounter::kOffcpuFieldsNotRecorded, f.offcpu_intervals,
                           "Ingero records neither the CPU a thread left, the thread that got it, "
                           "who woke it nor what it slept in: offcpu.cpu is -1 and next_thread_id, "
                           "wake_context, waker_thread_id, syscall_nr and iowait are NULL in " +
                               plural(f.offcpu_intervals, "interval", "intervals") +
                               ", so no competitor or waker can be named"));
    }
    if (f.offcpu_clipped_at_start > 0) {
        rows.push_back(counter_record(
            DataQualityCounter::kOffcpuClippedAtStart, f.offcpu_clipped_at_start,
            plural(f.offcpu_clipped_at_start, "off-CPU interval", "off-CPU intervals") +
                " began before the trace's first timestamp and start at 0"));
    }
    if (f.cuda_calls > 0) {
        rows.push_back(counter_record(DataQualityCounter::kCudaFieldsNotRecorded, f.cuda_calls,
                                      "Ingero records no stream handle and no pinned-memory flag: "
                                      "cuda_call.stream_id and host_pinned are NULL in " +
                                          plural(f.cuda_calls, "call", "calls")));
    }
    if (f.snapshots > 0) {
        rows.push_back(
            counter_record(DataQualityCounter::kSnapshotFieldsNotRecorded, f.snapshots,
                           "Ingero samples total CPU%, memory and load only: cpu_user_pct, "
                           "cpu_system_pct, cpu_iowait_pct, procs_running and ctxt_per_s are 0 "
                           "(not recorded) in " +
                               plural(f.snapshots, "snapshot", "snapshots")));
    }
    if (f.aggregate_rows == 0) {
        rows.push_back(
            counter_record(DataQualityCounter::kNoAggregates, 0,
                           "the Ingero DB has no event_aggregates rows, so it cannot say how many "
                           "events it did not store: counts here are of stored events only"));
    } else if (f.aggregates_skipped) {
        rows.push_back(
            counter_record(DataQualityCounter::kAggregatesSkipped, f.aggregate_rows,
                           "event_aggregates does not say which node it counted: its " +
                               plural(f.aggregate_rows, "row was", "rows were") +
                               " not imported for one node, so events Ingero did not store are "
                               "not counted"));
    } else if (f.aggregates_unattributed) {
        rows.push_back(
            counter_record(DataQualityCounter::kAggregatesUnattributed, f.aggregate_rows,
                           "event_aggregates does not say which node it counted: its per-minute "
                           "counts are stored without a process (event_count.process_id NULL)"));
    }
    if (f.aggregate_disagreements > 0) {
        rows.push_back(
            counter_record(DataQualityCounter::kAggregatesDisagree, f.aggregate_disagreements,
                           "in " +
                               plural(f.aggregate_disagreements, "(minute, process, op) cell",
                                      "(minute, process, op) cells") +
                               " the events table holds more rows than event_aggregates says were "
                               "stored; counts use the larger number"));
    }
    if (f.unproven_processes > 0) {
        rows.push_back(
            counter_record(DataQualityCounter::kForkChildrenAsProcesses, f.unproven_processes,
                           plural(f.unproven_processes, "forked id", "forked ids") +
                               " could be threads or processes (Ingero's process_fork fires for "
                               "both) and no event tied them to a thread group: imported as "
                               "processes"));
    }
    if (f.stacks_unresolved > 0) {
        rows.push_back(
            counter_record(DataQualityCounter::kStacksUnresolved, f.stacks_unresolved,
                           plural(f.stacks_unresolved, "call refers", "calls refer") +
                               " to a stack that stack_traces lacks or cannot be parsed: "
                               "stack_id is NULL"));
    }
    return rows;
}

}  // namespace causeway::interop
