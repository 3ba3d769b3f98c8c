#include "collector/data_quality.hpp"

namespace causeway::collector {

namespace {

using tracedb::Severity;

tracedb::DataQualityRecord counter(const char* source, const char* name, std::uint64_t value,
                                   Severity when_nonzero, const char* description) {
    return {source, name, static_cast<std::int64_t>(value),
            value == 0 ? Severity::kInfo : when_nonzero, description};
}

}  // namespace

std::uint64_t total_drops(const LossCounters& c) {
    return c.cuda.ringbuf_drops + c.sched.ringbuf_drops + c.lifecycle.ringbuf_drops;
}

namespace {

void add_python_records(const LossCounters& c, std::vector<tracedb::DataQualityRecord>& out) {
    const cw_python_counters& p = c.python;
    out.push_back(counter("python", "walks", p.walks, Severity::kInfo,
                          "Python stacks walked in the kernel (CUDA calls and sampled "
                          "switch-outs of Python processes)."));
    out.push_back(counter("python", "no_thread_state", p.no_thread_state, Severity::kInfo,
                          "Walks that found no Python thread state for the thread (a native "
                          "thread, or one not yet known to the interpreter): no Python frames."));
    out.push_back(counter("python", "read_errors", p.read_errors, Severity::kInfo,
                          "Walks cut short because a frame's memory was not resident; the stack "
                          "keeps the frames read and is marked truncated."));
    out.push_back(counter("python", "truncated", p.truncated, Severity::kInfo,
                          "Python stacks deeper than 32 frames: the outermost frames are missing "
                          "(stack.python_truncated)."));
    out.push_back(counter("python", "collisions", p.collisions, Severity::kDataLoss,
                          "Python stacks not stored because another stack had the same key."));
    out.push_back(counter("python", "map_full", p.map_full, Severity::kDataLoss,
                          "Python stacks not stored because the kernel's stack map (16384 "
                          "stacks) was full."));
    out.push_back(counter("python", "rate_limited", p.rate_limited, Severity::kInfo,
                          "Switch-outs not walked because the thread was walked less than "
                          "session.python_sample_gap_ns before (sampling, by design)."));
    out.push_back(counter("python", "ringbuf_drops", p.ringbuf_drops, Severity::kDataLoss,
                          "Switch-out stacks lost because their ring buffer was full."));
    out.push_back(counter("python", "unresolved_frames",
                          static_cast<std::uint64_t>(c.python_unresolved_frames), Severity::kInfo,
                          "Python frames whose code object could not be read (the process had "
                          "exited or freed it): stored without file, function and line."));
}

}  // namespace

std::vector<tracedb::DataQualityRecord> data_quality_records(const LossCounters& c) {
    std::vector<tracedb::DataQualityRecord> records{
        counter("cuda", "ringbuf_drops", c.cuda.ringbuf_drops, Severity::kDataLoss,
                "CUDA calls lost because the ring buffer was full: the trace misses them and "
                "call counts are too low."),
        counter("cuda", "unmatched_returns", c.cuda.unmatched_returns, Severity::kInfo,
                "CUDA calls whose return was seen without their entry (they started before the "
                "probes were attached); they are not stored."),
        counter("cuda", "entries_lost", c.cuda.entries_lost, Severity::kDataLoss,
                "CUDA call entries that never saw their return (a longjmp, or calls nested more "
                "than 4 deep); those calls are missing."),
        counter("cuda", "map_full", c.cuda.map_full, Severity::kDataLoss,
                "CUDA calls not recorded because per-thread storage could not be allocated."),
        counter("sched", "ringbuf_drops", c.sched.ringbuf_drops, Severity::kDataLoss,
                "Off-CPU intervals lost because the ring buffer was full; the per-thread totals "
                "in thread_sched_total are still exact."),
        counter("sched", "map_full", c.sched.map_full, Severity::kDataLoss,
                "Traced threads whose scheduling was not tracked because the per-thread map "
                "(65536 threads) was full."),
        counter("lifecycle", "ringbuf_drops", c.lifecycle.ringbuf_drops, Severity::kDataLoss,
                "Process or thread events (fork, exec, exit, rename, dlopen) lost: some names, "
                "exit times or late-loaded CUDA libraries may be missing."),
        counter("lifecycle", "map_full", c.lifecycle.map_full, Severity::kDataLoss,
                "Child processes not traced because the traced-process map (16384) was full."),
        counter("page_alloc", "map_full", c.page_alloc.map_full, Severity::kDataLoss,
                "Page allocations not counted because the bucket map was full."),
        counter("collector", "threads_seen_late", static_cast<std::uint64_t>(c.threads_seen_late),
                Severity::kInfo,
                "Traced threads first seen in an event rather than at their creation (they "
                "existed before recording); their start time is unknown."),
        counter("probes", "optional_missing", static_cast<std::uint64_t>(c.optional_probes_missing),
                Severity::kInfo,
                "Optional CUDA symbols a library exports that could not be attached (see the "
                "probe table); calls to them are not recorded."),
        counter("probes", "required_missing", static_cast<std::uint64_t>(c.required_probes_missing),
                Severity::kError,
                "Required CUDA probes that could not be attached to a symbol the library "
                "exports (see the probe table); calls through that library are missing."),
        counter("probes", "symbols_not_exported",
                static_cast<std::uint64_t>(c.symbols_not_exported), Severity::kInfo,
                "CUDA functions a probed library does not export (a minimal or older runtime; see "
                "the probe table): nothing can call them there, so no call is missing."),
    };
    if (c.python_walked) {
        add_python_records(c, records);
    }
    return records;
}

}  // namespace causeway::collector
