#include "tracedb/data_quality_counters.hpp"

#include <algorithm>
#include <array>
#include <cstddef>

#include "bpf/causeway_abi.h"

namespace causeway::tracedb {
namespace {

// The map sizes in the descriptions come from the BPF ABI header, so they cannot drift.
#define CW_TEXT(x) #x
#define CW_NUMBER(x) CW_TEXT(x)

using C = DataQualityCounter;
using O = CounterOrigin;
using S = Severity;

constexpr std::array kCounters{
    // collector
    DataQualityCounterSpec{
        C::kCudaRingbufDrops, "cuda", "ringbuf_drops", S::kDataLoss, O::kCollector,
        "CUDA calls lost because the ring buffer was full: the trace misses them and call counts "
        "are too low."},
    DataQualityCounterSpec{
        C::kCudaUnmatchedReturns, "cuda", "unmatched_returns", S::kInfo, O::kCollector,
        "CUDA calls whose return was seen without their entry (they started before the probes "
        "were attached); they are not stored."},
    DataQualityCounterSpec{
        C::kCudaEntriesLost, "cuda", "entries_lost", S::kDataLoss, O::kCollector,
        "CUDA call entries that never saw their return (a longjmp, or calls nested more "
        "than " CW_NUMBER(CW_MAX_NESTING) " deep); those calls are missing."},
    DataQualityCounterSpec{
        C::kCudaMapFull, "cuda", "map_full", S::kDataLoss, O::kCollector,
        "CUDA calls not recorded because per-thread storage could not be allocated."},
    DataQualityCounterSpec{
        C::kSchedRingbufDrops, "sched", "ringbuf_drops", S::kDataLoss, O::kCollector,
        "Off-CPU intervals lost because the ring buffer was full; the per-thread totals in "
        "thread_sched_total are still exact."},
    DataQualityCounterSpec{
        C::kSchedMapFull, "sched", "map_full", S::kDataLoss, O::kCollector,
        "Traced threads whose scheduling was not tracked because the per-thread map "
        "(" CW_NUMBER(CW_MAX_TRACED_THREADS) " threads) was full."},
    DataQualityCounterSpec{
        C::kSchedUnmatchedSwitches, "sched", "unmatched_switches", S::kInfo, O::kCollector,
        "Switches of traced threads whose last switch the other way the kernel did not report "
        "(one seen leaving its CPU twice, or taking it twice): what it did between the two is "
        "missing, from its off-CPU intervals and from its totals in thread_sched_total."},
    DataQualityCounterSpec{
        C::kLifecycleRingbufDrops, "lifecycle", "ringbuf_drops", S::kDataLoss, O::kCollector,
        "Process or thread events (fork, exec, exit, rename, dlopen) lost: some names, exit times "
        "or late-loaded CUDA libraries may be missing."},
    DataQualityCounterSpec{C::kLifecycleMapFull, "lifecycle", "map_full", S::kDataLoss,
                           O::kCollector,
                           "Child processes not traced because the traced-process map "
                           "(" CW_NUMBER(CW_MAX_TRACED_PROCESSES) ") was full."},
    DataQualityCounterSpec{C::kPageAllocMapFull, "page_alloc", "map_full", S::kDataLoss,
                           O::kCollector,
                           "Page allocations not counted because the bucket map was full."},
    DataQualityCounterSpec{
        C::kThreadsSeenLate, "collector", "threads_seen_late", S::kInfo, O::kCollector,
        "Traced threads first seen in an event rather than at their creation (they existed "
        "before recording); their start time is unknown."},
    DataQualityCounterSpec{
        C::kOptionalProbesMissing, "probes", "optional_missing", S::kInfo, O::kCollector,
        "Optional CUDA symbols a library exports that could not be attached (see the probe "
        "table); calls to them are not recorded."},
    DataQualityCounterSpec{
        C::kRequiredProbesMissing, "probes", "required_missing", S::kError, O::kCollector,
        "Required CUDA probes that could not be attached to a symbol the library exports (see "
        "the probe table); calls through that library are missing."},
    DataQualityCounterSpec{
        C::kProbeSymbolsNotExported, "probes", "symbols_not_exported", S::kInfo, O::kCollector,
        "CUDA functions a probed library does not export (a minimal or older runtime; see the "
        "probe table): nothing can call them there, so no call is missing."},
    DataQualityCounterSpec{
        C::kPythonWalks, "python", "walks", S::kInfo, O::kCollector,
        "Python stacks walked in the kernel (CUDA calls and sampled switch-outs of Python "
        "processes)."},
    DataQualityCounterSpec{
        C::kPythonNoThreadState, "python", "no_thread_state", S::kInfo, O::kCollector,
        "Walks that found no Python thread state for the thread (a native thread, or one not yet "
        "known to the interpreter): no Python frames."},
    DataQualityCounterSpec{
        C::kPythonReadErrors, "python", "read_errors", S::kInfo, O::kCollector,
        "Walks cut short because a frame's memory was not resident; the stack keeps the frames "
        "read and is marked truncated."},
    DataQualityCounterSpec{C::kPythonTruncated, "python", "truncated", S::kInfo, O::kCollector,
                           "Python stacks deeper than " CW_NUMBER(
                               CW_PY_MAX_FRAMES) " frames: the outermost frames are missing "
                                                 "(stack.python_truncated)."},
    DataQualityCounterSpec{C::kPythonCollisions, "python", "collisions", S::kDataLoss,
                           O::kCollector,
                           "Python stacks not stored because another stack had the same key."},
    DataQualityCounterSpec{C::kPythonMapFull, "python", "map_full", S::kDataLoss, O::kCollector,
                           "Python stacks not stored because the kernel's stack map "
                           "(" CW_NUMBER(CW_PY_MAX_STACKS) " stacks) was full."},
    DataQualityCounterSpec{C::kPythonRateLimited, "python", "rate_limited", S::kInfo, O::kCollector,
                           "Switch-outs not walked because the thread was walked less than "
                           "session.python_sample_gap_ns before (sampling, by design)."},
    DataQualityCounterSpec{C::kPythonRingbufDrops, "python", "ringbuf_drops", S::kDataLoss,
                           O::kCollector,
                           "Switch-out stacks lost because their ring buffer was full."},
    DataQualityCounterSpec{
        C::kPythonUnresolvedFrames, "python", "unresolved_frames", S::kInfo, O::kCollector,
        "Python frames whose code object could not be read (the process had exited or freed "
        "it): stored without file, function and line."},
    DataQualityCounterSpec{
        C::kPythonUnreadableInterpreters, "python", "unreadable_interpreters", S::kError,
        O::kCollector,
        "Processes running a CPython whose frames cannot be read: their stacks have native "
        "frames only."},
    DataQualityCounterSpec{
        C::kCommandNotStarted, "collector", "command_not_started", S::kError, O::kCollector,
        "The command the collector started never ran, so nothing of it is in the trace."},
    DataQualityCounterSpec{
        C::kCommandEndedByCollector, "collector", "command_ended_by_collector", S::kInfo,
        O::kCollector,
        "the recording stopped before the command exited (--duration, SIGINT or SIGTERM): its "
        "processes were sent SIGTERM, then SIGKILL after --kill-after; the end of the trace "
        "shows them shutting down"},
    DataQualityCounterSpec{
        C::kStorageFailed, "collector", "storage_failed", S::kDataLoss, O::kCollector,
        "The trace DB could take no more (a full disk, an I/O error): the recording stopped "
        "then, and the command ran on untraced; nothing after that time is in the trace."},
    // importer
    DataQualityCounterSpec{C::kWalUnread, "import", "wal_unread", S::kDataLoss, O::kImporter,
                           "The source's write-ahead log could not be read: its newest events "
                           "are missing."},
    DataQualityCounterSpec{
        C::kNodesMerged, "import", "nodes_merged", S::kError, O::kImporter,
        "Several nodes merged into one trace: their processes are kept apart but their clocks "
        "were not compared."},
    DataQualityCounterSpec{C::kSessionsMerged, "import", "sessions_merged", S::kInfo, O::kImporter,
                           "Several source sessions merged into one trace; the gaps between "
                           "them hold no data."},
    DataQualityCounterSpec{
        C::kCallsCountsOnly, "<area>", "_counts_only", S::kDataLoss, O::kImporter,
        "CUDA calls the source kept only as per-minute counts: per-call statistics describe the "
        "stored calls only.",
        true},
    DataQualityCounterSpec{
        C::kSwitchesCountsOnly, "<area>", "_counts_only", S::kDataLoss, O::kImporter,
        "Context switches the source kept only as per-minute counts: they have no interval, so "
        "they cannot show that a given call was preempted.",
        true},
    DataQualityCounterSpec{C::kEventsCountsOnly, "<area>", "_counts_only", S::kInfo, O::kImporter,
                           "Host events the source kept only as per-minute counts (event_count).",
                           true},
    DataQualityCounterSpec{
        C::kPageAllocPerMinute, "<area>", "_per_minute", S::kInfo, O::kImporter,
        "Page allocations the source counts per wall-clock minute: page_alloc rows are 60 s "
        "buckets.",
        true},
    DataQualityCounterSpec{
        C::kOffcpuReasonUnknown, "sched", "offcpu_reason_unknown", S::kError, O::kImporter,
        "Off-CPU intervals that do not say whether the thread was preempted or blocked: CPU "
        "contention cannot be proven from them."},
    DataQualityCounterSpec{
        C::kOffcpuFieldsNotRecorded, "sched", "offcpu_fields_not_recorded", S::kInfo, O::kImporter,
        "Off-CPU intervals without CPU, competitor, waker or system call: no competitor or waker "
        "can be named."},
    DataQualityCounterSpec{C::kOffcpuClippedAtStart, "sched", "offcpu_clipped_at_start", S::kInfo,
                           O::kImporter,
                           "Off-CPU intervals that began before the trace's first timestamp and "
                           "start at 0."},
    DataQualityCounterSpec{C::kCudaFieldsNotRecorded, "cuda", "fields_not_recorded", S::kInfo,
                           O::kImporter, "CUDA calls without stream handle or pinned-memory flag."},
    DataQualityCounterSpec{C::kSnapshotFieldsNotRecorded, "snapshot", "fields_not_recorded",
                           S::kInfo, O::kImporter,
                           "System snapshots with only total CPU%, memory and load."},
    DataQualityCounterSpec{C::kNoAggregates, "import", "no_aggregates", S::kInfo, O::kImporter,
                           "The source has no per-minute counts: counts are of stored events "
                           "only."},
    DataQualityCounterSpec{C::kAggregatesSkipped, "import", "aggregates_skipped", S::kDataLoss,
                           O::kImporter,
                           "Per-minute counts not imported because they do not say which node "
                           "they counted."},
    DataQualityCounterSpec{C::kAggregatesUnattributed, "import", "aggregates_unattributed",
                           S::kInfo, O::kImporter,
                           "Per-minute counts stored without a process because they do not say "
                           "which node they counted."},
    DataQualityCounterSpec{C::kAggregatesDisagree, "import", "aggregates_disagree", S::kInfo,
                           O::kImporter,
                           "Cells where the source stored more events than its per-minute "
                           "counts say; counts use the larger number."},
    DataQualityCounterSpec{C::kForkChildrenAsProcesses, "lifecycle", "fork_children_as_processes",
                           S::kInfo, O::kImporter,
                           "Forked ids that could be threads or processes, imported as "
                           "processes."},
    DataQualityCounterSpec{C::kStacksUnresolved, "stack", "unresolved", S::kInfo, O::kImporter,
                           "Calls whose stack the source lacks or cannot parse: stack_id is "
                           "NULL."},
    // analysis
    DataQualityCounterSpec{C::kCommandNeverRan, "analysis", "command_not_started", S::kError,
                           O::kAnalysis,
                           "The recorded command's process tree never executed it (a trace of "
                           "an older collector)."},
    DataQualityCounterSpec{C::kUnfinishedRecording, "analysis", "unfinished_recording", S::kError,
                           O::kAnalysis,
                           "The session has no stop time: the end of the trace may be missing."},
    DataQualityCounterSpec{C::kImportedTrace, "analysis", "imported_trace", S::kInfo, O::kAnalysis,
                           "An imported trace: a given call cannot be proven preempted where "
                           "the source kept only counts."},
    DataQualityCounterSpec{C::kNoOffcpuIntervals, "analysis", "no_offcpu_intervals", S::kError,
                           O::kAnalysis,
                           "CUDA calls but no off-CPU intervals: CPU contention can be neither "
                           "proven nor ruled out."},
    DataQualityCounterSpec{C::kRequiredProbeMissing, "analysis", "required_probe_missing",
                           S::kError, O::kAnalysis,
                           "A required probe that was not attached (one row per probe)."},
    DataQualityCounterSpec{C::kSymbolsNotExported, "analysis", "symbols_not_exported", S::kInfo,
                           O::kAnalysis,
                           "CUDA functions the probed libraries do not export, named."},
    DataQualityCounterSpec{C::kReaderNote, "analysis", "reader_note", S::kInfo, O::kAnalysis,
                           "Something the reader noticed while loading the trace."},
    DataQualityCounterSpec{C::kImpossibleStopTime, "analysis", "impossible_stop_time", S::kError,
                           O::kAnalysis,
                           "The session's stop time is impossible: the end of the trace is "
                           "taken from its last event."},
    DataQualityCounterSpec{C::kImpossibleCpuCount, "analysis", "impossible_cpu_count", S::kError,
                           O::kAnalysis,
                           "The session's CPU count is impossible: read as unknown (0)."},
    DataQualityCounterSpec{C::kImpossibleCudaCalls, "analysis", "impossible_cuda_calls", S::kError,
                           O::kAnalysis,
                           "CUDA calls outside the session, left out of every number."},
    DataQualityCounterSpec{C::kImpossibleCudaCallValues, "analysis", "impossible_cuda_call_values",
                           S::kError, O::kAnalysis,
                           "CUDA calls holding an impossible size, stack id or return code."},
    DataQualityCounterSpec{C::kImpossibleOffcpuIntervals, "analysis", "impossible_offcpu_intervals",
                           S::kError, O::kAnalysis,
                           "Off-CPU intervals with impossible values, left out."},
    DataQualityCounterSpec{C::kImpossibleSchedTotals, "analysis", "impossible_sched_totals",
                           S::kError, O::kAnalysis,
                           "Per-thread scheduling totals with impossible values, left out."},
    DataQualityCounterSpec{C::kImpossiblePageAllocBuckets, "analysis",
                           "impossible_page_alloc_buckets", S::kError, O::kAnalysis,
                           "Page-allocation buckets with impossible values, left out."},
    DataQualityCounterSpec{C::kImpossibleSnapshots, "analysis", "impossible_snapshots", S::kError,
                           O::kAnalysis, "System snapshots with impossible values, left out."},
    DataQualityCounterSpec{C::kImpossibleEventCounts, "analysis", "impossible_event_counts",
                           S::kError, O::kAnalysis,
                           "Event-count buckets with impossible values, left out."},
    DataQualityCounterSpec{C::kOrphanThreadRows, "analysis", "orphan_thread_rows", S::kError,
                           O::kAnalysis,
                           "Thread rows naming a process not in the file, left out with their "
                           "calls and intervals."},
    DataQualityCounterSpec{C::kOrphanCudaCalls, "analysis", "orphan_cuda_calls", S::kError,
                           O::kAnalysis,
                           "CUDA calls naming a thread or an op not in the file, left out of "
                           "every number."},
    DataQualityCounterSpec{C::kOrphanStackRows, "analysis", "orphan_stack_rows", S::kError,
                           O::kAnalysis,
                           "Python frames naming a stack not in the file, and switch-out samples "
                           "naming a thread or a stack not in the file, left out."},
    DataQualityCounterSpec{C::kMissingCallStacks, "analysis", "missing_call_stacks", S::kError,
                           O::kAnalysis,
                           "CUDA calls naming a stack not in the file, read as calls without a "
                           "stack."},
    DataQualityCounterSpec{C::kDamagedFile, "analysis", "damaged_file", S::kError, O::kAnalysis,
                           "The file is damaged: cuda_call was read with SQL, numbers may miss "
                           "rows."},
    DataQualityCounterSpec{C::kCudaCallReadWithSql, "analysis", "cuda_call_read_with_sql", S::kInfo,
                           O::kAnalysis,
                           "cuda_call was read with SQL instead of the page scan: the same "
                           "rows, read more slowly."},
};

#undef CW_NUMBER
#undef CW_TEXT

// The table is indexed by the enum: each row sits at its counter's position.
consteval bool rows_in_enum_order() {
    for (std::size_t i = 0; i < kCounters.size(); ++i) {
        if (static_cast<std::size_t>(kCounters[i].id) != i) {
            return false;
        }
    }
    return true;
}
static_assert(rows_in_enum_order(), "kCounters lists the counters in DataQualityCounter's order");
static_assert(kCounters.size() == static_cast<std::size_t>(C::kCudaCallReadWithSql) + 1,
              "every DataQualityCounter has a row");

}  // namespace

std::span<const DataQualityCounterSpec> data_quality_counters() {
    return kCounters;
}

const DataQualityCounterSpec& counter_spec(DataQualityCounter counter) {
    return kCounters[static_cast<std::size_t>(counter)];
}

std::optional<DataQualityCounter> find_counter(std::string_view source, std::string_view name) {
    auto it = std::find_if(kCounters.begin(), kCounters.end(), [&](const auto& spec) {
        return !spec.per_event && spec.source == source && spec.name == name;
    });
    return it == kCounters.end() ? std::nullopt : std::optional{it->id};
}

DataQualityRecord counter_record(DataQualityCounter counter, std::int64_t value) {
    return counter_record(counter, value, counter_spec(counter).description);
}

DataQualityRecord counter_record(DataQualityCounter counter, std::int64_t value,
                                 std::string description) {
    const DataQualityCounterSpec& spec = counter_spec(counter);
    return {spec.source, spec.name, value, value == 0 ? Severity::kInfo : spec.severity,
            std::move(description)};
}

DataQualityRecord event_counter_record(DataQualityCounter counter, const std::string& area,
                                       const std::string& event, std::int64_t value,
                                       std::string description) {
    const DataQualityCounterSpec& spec = counter_spec(counter);
    return {area, event + spec.name, value, value == 0 ? Severity::kInfo : spec.severity,
            std::move(description)};
}

}  // namespace causeway::tracedb
