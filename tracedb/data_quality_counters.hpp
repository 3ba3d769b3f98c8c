#pragma once
// Every data-quality counter that a layer writes into the data_quality table or adds to a result:
// one row each with its source and name as stored, its severity, which layer produces it and
// what it means (Perfetto's stats table is the model). The collector, the importers and the
// analysis name a counter by its enum here, never by a string, and the analysis recognises the
// rows it reads back through find_counter. The stored names are the trace format: renaming one
// makes older traces read as an unknown counter.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "tracedb/records.hpp"

namespace causeway::tracedb {

// Which layer produces the counter.
enum class CounterOrigin { kCollector, kImporter, kAnalysis };

enum class DataQualityCounter {
    // collector: the BPF programs' loss counters, the probe table, the recording itself
    kCudaRingbufDrops,
    kCudaUnmatchedReturns,
    kCudaEntriesLost,
    kCudaMapFull,
    kSchedRingbufDrops,
    kSchedMapFull,
    kSchedUnmatchedSwitches,
    kLifecycleRingbufDrops,
    kLifecycleMapFull,
    kPageAllocMapFull,
    kThreadsSeenLate,
    kOptionalProbesMissing,
    kRequiredProbesMissing,
    kProbeSymbolsNotExported,
    kPythonWalks,
    kPythonNoThreadState,
    kPythonReadErrors,
    kPythonTruncated,
    kPythonCollisions,
    kPythonMapFull,
    kPythonRateLimited,
    kPythonRingbufDrops,
    kPythonUnresolvedFrames,
    kPythonUnreadableInterpreters,
    kCommandNotStarted,
    kCommandEndedByCollector,
    kStorageFailed,
    // importer (Ingero)
    kWalUnread,
    kNodesMerged,
    kSessionsMerged,
    kCallsCountsOnly,
    kSwitchesCountsOnly,
    kEventsCountsOnly,
    kPageAllocPerMinute,
    kOffcpuReasonUnknown,
    kOffcpuFieldsNotRecorded,
    kOffcpuClippedAtStart,
    kCudaFieldsNotRecorded,
    kSnapshotFieldsNotRecorded,
    kNoAggregates,
    kAggregatesSkipped,
    kAggregatesUnattributed,
    kAggregatesDisagree,
    kForkChildrenAsProcesses,
    kStacksUnresolved,
    // analysis: what the loader and the diagnosis notice in the trace
    kCommandNeverRan,
    kUnfinishedRecording,
    kImportedTrace,
    kNoOffcpuIntervals,
    kRequiredProbeMissing,
    kSymbolsNotExported,
    kReaderNote,
    kImpossibleStopTime,
    kImpossibleCpuCount,
    kImpossibleCudaCalls,
    kImpossibleCudaCallValues,
    kImpossibleOffcpuIntervals,
    kImpossibleSchedTotals,
    kImpossiblePageAllocBuckets,
    kImpossibleSnapshots,
    kImpossibleEventCounts,
    kOrphanThreadRows,
    kOrphanCudaCalls,
    kOrphanStackRows,
    kMissingCallStacks,
    kDamagedFile,
    kCudaCallReadWithSql,
};

struct DataQualityCounterSpec {
    DataQualityCounter id;
    // As stored in data_quality.source and .counter. A per-event counter (per_event) is stored
    // as source = the event's area and counter = the event's name followed by `name`.
    const char* source;
    const char* name;
    Severity severity;  // when the value is not 0; a counter at 0 is info
    CounterOrigin origin;
    // What the counter means. Collector counters store it as the row's description; importer
    // and analysis rows store a sentence with their numbers instead.
    const char* description;
    bool per_event = false;
};

std::span<const DataQualityCounterSpec> data_quality_counters();
const DataQualityCounterSpec& counter_spec(DataQualityCounter counter);

// The counter stored under (source, name); nullopt for a per-event counter or a name this
// version does not know (a newer recorder).
std::optional<DataQualityCounter> find_counter(std::string_view source, std::string_view name);

// A row of the counter, its severity from the table (info at 0), described by the table.
DataQualityRecord counter_record(DataQualityCounter counter, std::int64_t value);
// The same with a description of this occurrence (numbers, names, the cause).
DataQualityRecord counter_record(DataQualityCounter counter, std::int64_t value,
                                 std::string description);
// A per-event counter's row: source is the event's area, the name the event's plus the suffix.
DataQualityRecord event_counter_record(DataQualityCounter counter, const std::string& area,
                                       const std::string& event, std::int64_t value,
                                       std::string description);

}  // namespace causeway::tracedb
