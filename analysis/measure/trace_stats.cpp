#include "analysis/measure/trace_stats.hpp"

#include <algorithm>
#include <map>

#include "analysis/measure/cpu_takers.hpp"
#include "analysis/model/saturating.hpp"

namespace causeway::analysis {
namespace {

struct OpAccumulator {
    std::vector<std::int64_t> durations_ns;
    std::map<std::int64_t, std::int64_t> error_codes;  // return code -> calls
    std::int64_t bytes = 0;
    std::int64_t pageable = 0;
    std::int64_t enclosed = 0;
};

OpStats finish_op(const OpInfo& op, OpAccumulator& acc, std::int64_t wall_ns) {
    OpStats s;
    s.op = op.name;
    s.api = op_api_name(op.api);
    s.category = category_name(op.category);
    s.dur = summarize(acc.durations_ns);
    s.bytes = acc.bytes;
    s.pageable_calls = acc.pageable;
    s.enclosed_calls = acc.enclosed;
    std::int64_t most = 0;
    for (const auto& [code, calls] : acc.error_codes) {
        s.errors += calls;
        if (calls > most) {
            most = calls;
            s.common_error = code;
        }
    }
    if (op.category == OpCategory::kCopy && s.dur.total_ns > 0) {
        s.throughput_bytes_per_s =
            static_cast<double>(s.bytes) * 1e9 / static_cast<double>(s.dur.total_ns);
    }
    s.wall_share =
        wall_ns > 0 ? static_cast<double>(s.dur.total_ns) / static_cast<double>(wall_ns) : 0.0;
    return s;
}

HostSummary host_summary(const TraceModel& model, const ResolvedFilter& filter) {
    HostSummary h;
    h.cpu_count = model.session.cpu_count;
    std::vector<std::int64_t> cpu_taken = cpu_taken_by_process(model, filter);
    for (std::size_t p = 0; p < model.processes.size(); ++p) {
        if (!filter.process_selected(static_cast<int>(p))) {
            continue;
        }
        h.processes_in_tree += model.processes[p].in_tree ? 1 : 0;
        h.competitor_processes += cpu_taken[p] > 0 ? 1 : 0;
    }
    const TimeWindow& range = filter.window();
    for (std::size_t t = 0; t < model.threads.size(); ++t) {
        int index = static_cast<int>(t);
        if (!filter.thread_selected(index) || !model.process_of_thread(index).in_tree) {
            continue;
        }
        ++h.threads_traced;
        if (const auto& total = model.sched_by_thread[t]) {
            add_sched_totals(*total, h);
        }
        for (const auto& o : model.offcpu_by_thread[t]) {
            h.offcpu_intervals += range.contains(o.ts_ns) ? 1 : 0;
        }
    }
    for (const auto& bucket : model.page_alloc) {
        if (bucket.process_index >= 0 && filter.process_selected(bucket.process_index) &&
            range.contains(bucket.bucket_ns)) {
            add_to(h.page_allocs, bucket.count);
            add_to(h.page_alloc_bytes, bucket.bytes);
        }
    }
    double busy_sum = 0;
    double running_sum = 0;
    for (const auto& s : model.snapshots) {
        if (!range.contains(s.ts_ns)) {
            continue;
        }
        ++h.snapshots;
        busy_sum += s.cpu_busy_pct;
        running_sum += static_cast<double>(s.procs_running);
        h.cpu_busy_pct_max = std::max(h.cpu_busy_pct_max, s.cpu_busy_pct);
        h.load1_max = std::max(h.load1_max, s.load1);
    }
    if (h.snapshots > 0) {
        h.cpu_busy_pct_mean = busy_sum / static_cast<double>(h.snapshots);
        h.procs_running_mean = running_sum / static_cast<double>(h.snapshots);
    }
    return h;
}

}  // namespace

SessionSummary session_summary(const TraceModel& model) {
    const SessionInfo& s = model.session;
    return {.host = s.host,
            .kernel = s.kernel,
            .cpu_count = s.cpu_count,
            .gpu = s.gpu,
            .command_line = s.command_line,
            .source = s.source,
            .start_wall_ns = s.start_wall_ns,
            .offcpu_floor_ns = s.offcpu_floor_ns};
}

TraceStats compute_stats(const TraceModel& model, const TraceFilter& filter) {
    ResolvedFilter selected(model, filter);
    TraceStats stats;
    stats.session = session_summary(model);
    stats.range = selected.window();
    const CudaCalls& c = model.calls;
    std::vector<OpAccumulator> per_op(model.ops.size());
    for (std::size_t i = 0; i < c.size(); ++i) {
        if (!selected.call_selected(i)) {
            continue;
        }
        OpAccumulator& acc = per_op[static_cast<std::size_t>(c.op_index[i])];
        acc.durations_ns.push_back(c.dur_ns[i]);
        if (c.ret[i] != 0) {
            ++acc.error_codes[c.ret[i]];
        }
        add_to(acc.bytes, std::max<std::int64_t>(c.bytes[i], 0));
        acc.pageable += c.host_pinned[i] == 0 ? 1 : 0;
        acc.enclosed += c.enclosed[i];
    }
    for (std::size_t op = 0; op < per_op.size(); ++op) {
        if (per_op[op].durations_ns.empty()) {
            continue;
        }
        stats.ops.push_back(finish_op(model.ops[op], per_op[op], stats.range.dur_ns()));
        stats.calls += stats.ops.back().dur.count;
        stats.error_calls += stats.ops.back().errors;
    }
    std::sort(stats.ops.begin(), stats.ops.end(),
              [](const OpStats& a, const OpStats& b) { return a.dur.total_ns > b.dur.total_ns; });
    stats.host = host_summary(model, selected);
    stats.data_quality = data_quality_report(model);
    return stats;
}

}  // namespace causeway::analysis
