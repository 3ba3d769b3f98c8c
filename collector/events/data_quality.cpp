#include "collector/events/data_quality.hpp"

#include "tracedb/data_quality_counters.hpp"

namespace causeway::collector {

namespace {

using tracedb::DataQualityCounter;

tracedb::DataQualityRecord counter(DataQualityCounter id, std::uint64_t value) {
    return tracedb::counter_record(id, static_cast<std::int64_t>(value));
}

void add_python_records(const LossCounters& c, std::vector<tracedb::DataQualityRecord>& out) {
    const cw_python_counters& p = c.python;
    out.push_back(counter(DataQualityCounter::kPythonWalks, p.walks));
    out.push_back(counter(DataQualityCounter::kPythonNoThreadState, p.no_thread_state));
    out.push_back(counter(DataQualityCounter::kPythonReadErrors, p.read_errors));
    out.push_back(counter(DataQualityCounter::kPythonTruncated, p.truncated));
    out.push_back(counter(DataQualityCounter::kPythonCollisions, p.collisions));
    out.push_back(counter(DataQualityCounter::kPythonMapFull, p.map_full));
    out.push_back(counter(DataQualityCounter::kPythonRateLimited, p.rate_limited));
    out.push_back(counter(DataQualityCounter::kPythonRingbufDrops, p.ringbuf_drops));
    out.push_back(counter(DataQualityCounter::kPythonUnresolvedFrames,
                          static_cast<std::uint64_t>(c.python_unresolved_frames)));
}

}  // namespace

std::uint64_t total_drops(const LossCounters& c) {
    return c.cuda.ringbuf_drops + c.sched.ringbuf_drops + c.lifecycle.ringbuf_drops;
}

std::vector<tracedb::DataQualityRecord> data_quality_records(const LossCounters& c) {
    std::vector<tracedb::DataQualityRecord> records{
        counter(DataQualityCounter::kCudaRingbufDrops, c.cuda.ringbuf_drops),
        counter(DataQualityCounter::kCudaUnmatchedReturns, c.cuda.unmatched_returns),
        counter(DataQualityCounter::kCudaEntriesLost, c.cuda.entries_lost),
        counter(DataQualityCounter::kCudaMapFull, c.cuda.map_full),
        counter(DataQualityCounter::kSchedRingbufDrops, c.sched.ringbuf_drops),
        counter(DataQualityCounter::kSchedMapFull, c.sched.map_full),
        counter(DataQualityCounter::kSchedUnmatchedSwitches, c.sched.unmatched_switches),
        counter(DataQualityCounter::kLifecycleRingbufDrops, c.lifecycle.ringbuf_drops),
        counter(DataQualityCounter::kLifecycleMapFull, c.lifecycle.map_full),
        counter(DataQualityCounter::kPageAllocMapFull, c.page_alloc.map_full),
        counter(DataQualityCounter::kThreadsSeenLate,
                static_cast<std::uint64_t>(c.threads_seen_late)),
        counter(DataQualityCounter::kOptionalProbesMissing,
                static_cast<std::uint64_t>(c.optional_probes_missing)),
        counter(DataQualityCounter::kRequiredProbesMissing,
                static_cast<std::uint64_t>(c.required_probes_missing)),
        counter(DataQualityCounter::kProbeSymbolsNotExported,
                static_cast<std::uint64_t>(c.symbols_not_exported)),
    };
    if (c.python_walked) {
        add_python_records(c, records);
    }
    return records;
}

}  // namespace causeway::collector
