#include "interop/import_limits.hpp"

namespace causeway::interop {
namespace {

using tracedb::DataQualityRecord;
using tracedb::Severity;

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
    DataQualityRecord row{.source = total.op.area,
                          .counter = event + "_counts_only",
                          .value = missing,
                          .severity = Severity::kInfo};
    switch (total.op.kind) {
        case IngeroEventKind::kCudaCall:
            row.severity = Severity::kDataLoss;
            row.description =
                header + with_commas(missing) + " of " + with_commas(total.count) +
                " calls were not stored by Ingero; per-call statistics describe the " +
                with_commas(total.records) +
                " stored calls, which need not be a representative sample";
            break;
        case IngeroEventKind::kSchedSwitch:
            row.severity = Severity::kDataLoss;
            row.description =
                header + with_commas(missing) + " of " + with_commas(total.count) +
                " context switches have no interval, so they cannot show that a given call was "
                "preempted; they show only how often, and how long in total, those processes "
                "were off a CPU";
            break;
        case IngeroEventKind::kPageAlloc:
            row.counter = event + "_per_minute";
            row.description = header + with_commas(total.count) +
                              " allocations; page_alloc rows are 60 s buckets aligned to "
                              "Ingero's wall-clock minutes (the first starts at the session "
                              "start), not the collector's 100 ms";
            break;
        case IngeroEventKind::kSchedWakeup:
            row.description = header + with_commas(missing) +
                              " wakeups; the trace schema keeps no wakeup rows (stored ones "
                              "were used to tell blocked off-CPU intervals)";
            break;
        default:
            row.description = header + with_commas(missing) + " of " + with_commas(total.count) +
                              " events, in event_count; " +
                              (total.op.kind == IngeroEventKind::kCountOnly
                                   ? "the trace schema has no table for them"
                                   : "they are not in the process and thread tables");
            break;
    }
    return row;
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
        rows.push_back({"import", "wal_unread", 1, Severity::kDataLoss, f.wal_unread});
    }
    if (f.merged_nodes.size() > 1) {
        std::string names;
        for (const auto& node : f.merged_nodes) {
            names += (names.empty() ? "" : ", ") + node;
        }
        rows.push_back(
            {"import", "nodes_merged", static_cast<std::int64_t>(f.merged_nodes.size()),
             Severity::kError,
             std::to_string(f.merged_nodes.size()) + " nodes (" + names +
                 ") merged into one trace: their processes are kept apart but their clocks were "
                 "not compared; import one with --node NAME for a per-node diagnosis"});
    } else if (f.sessions > 1) {
        rows.push_back({"import", "sessions_merged", f.sessions, Severity::kInfo,
                        std::to_string(f.sessions) +
                            " Ingero sessions merged into one trace; the gaps between them hold "
                            "no data"});
    }
    for (const auto& [event, total] : f.totals) {
        if (total.count > total.records) {
            rows.push_back(counts_only(event, total));
        }
    }
    const std::int64_t reason_unknown = f.offcpu_intervals - f.offcpu_blocked_by_wakeup;
    if (reason_unknown > 0) {
        rows.push_back(
            {"sched", "offcpu_reason_unknown", reason_unknown, Severity::kError,
             with_commas(reason_unknown) + " of " + with_commas(f.offcpu_intervals) +
                 " off-CPU intervals (from Ingero sched_switch) do not say whether the thread "
                 "was preempted or blocked: stored as reason=blocked with runq_wait_ns=0. A call "
                 "that overlaps them was off a CPU, but CPU contention cannot be proven from "
                 "them; " +
                 with_commas(f.offcpu_blocked_by_wakeup) +
                 " are known to be blocked (a wakeup was recorded inside them)"});
    }
    if (f.offcpu_intervals > 0) {
        rows.push_back({"sched", "offcpu_fields_not_recorded", f.offcpu_intervals, Severity::kInfo,
                        "Ingero records neither the CPU a thread left, the thread that got it, "
                        "who woke it nor what it slept in: offcpu.cpu is -1 and next_thread_id, "
                        "wake_context, waker_thread_id, syscall_nr and iowait are NULL in " +
                            plural(f.offcpu_intervals, "interval", "intervals") +
                            ", so no competitor or waker can be named"});
    }
    if (f.offcpu_clipped_at_start > 0) {
        rows.push_back({"sched", "offcpu_clipped_at_start", f.offcpu_clipped_at_start,
                        Severity::kInfo,
                        plural(f.offcpu_clipped_at_start, "off-CPU interval", "off-CPU intervals") +
                            " began before the trace's first timestamp and start at 0"});
    }
    if (f.cuda_calls > 0) {
        rows.push_back({"cuda", "fields_not_recorded", f.cuda_calls, Severity::kInfo,
                        "Ingero records no stream handle and no pinned-memory flag: "
                        "cuda_call.stream_id and host_pinned are NULL in " +
                            plural(f.cuda_calls, "call", "calls")});
    }
    if (f.snapshots > 0) {
        rows.push_back({"snapshot", "fields_not_recorded", f.snapshots, Severity::kInfo,
                        "Ingero samples total CPU%, memory and load only: cpu_user_pct, "
                        "cpu_system_pct, cpu_iowait_pct, procs_running and ctxt_per_s are 0 "
                        "(not recorded) in " +
                            plural(f.snapshots, "snapshot", "snapshots")});
    }
    if (f.aggregate_rows == 0) {
        rows.push_back({"import", "no_aggregates", 0, Severity::kInfo,
                        "the Ingero DB has no event_aggregates rows, so it cannot say how many "
                        "events it did not store: counts here are of stored events only"});
    } else if (f.aggregates_skipped) {
        rows.push_back({"import", "aggregates_skipped", f.aggregate_rows, Severity::kDataLoss,
                        "event_aggregates does not say which node it counted: its " +
                            plural(f.aggregate_rows, "row was", "rows were") +
                            " not imported for one node, so events Ingero did not store are "
                            "not counted"});
    } else if (f.aggregates_unattributed) {
        rows.push_back({"import", "aggregates_unattributed", f.aggregate_rows, Severity::kInfo,
                        "event_aggregates does not say which node it counted: its per-minute "
                        "counts are stored without a process (event_count.process_id NULL)"});
    }
    if (f.aggregate_disagreements > 0) {
        rows.push_back({"import", "aggregates_disagree", f.aggregate_disagreements, Severity::kInfo,
                        "in " +
                            plural(f.aggregate_disagreements, "(minute, process, op) cell",
                                   "(minute, process, op) cells") +
                            " the events table holds more rows than event_aggregates says were "
                            "stored; counts use the larger number"});
    }
    if (f.unproven_processes > 0) {
        rows.push_back({"lifecycle", "fork_children_as_processes", f.unproven_processes,
                        Severity::kInfo,
                        plural(f.unproven_processes, "forked id", "forked ids") +
                            " could be threads or processes (Ingero's process_fork fires for "
                            "both) and no event tied them to a thread group: imported as "
                            "processes"});
    }
    if (f.stacks_unresolved > 0) {
        rows.push_back({"stack", "unresolved", f.stacks_unresolved, Severity::kInfo,
                        plural(f.stacks_unresolved, "call refers", "calls refer") +
                            " to a stack that stack_traces lacks or cannot be parsed: "
                            "stack_id is NULL"});
    }
    return rows;
}

}  // namespace causeway::interop
