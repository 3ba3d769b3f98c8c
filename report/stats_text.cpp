#include "report/stats_text.hpp"

#include "report/diagnosis_text.hpp"
#include "report/human_units.hpp"
#include "report/text_table.hpp"

namespace causeway::report {
namespace {

std::string render_ops(const analysis::TraceStats& stats) {
    using A = TextTable::Align;
    TextTable table({"op", "api", "calls", "total", "mean", "p50", "p95", "p99", "max", "bytes",
                     "throughput", "wall share", "errors"},
                    {A::kLeft, A::kLeft, A::kRight, A::kRight, A::kRight, A::kRight, A::kRight,
                     A::kRight, A::kRight, A::kRight, A::kRight, A::kRight, A::kRight});
    for (const auto& op : stats.ops) {
        std::string errors = std::to_string(op.errors);
        if (op.common_error) {
            errors += " (mostly " + std::to_string(*op.common_error) + ")";
        }
        table.add_row(
            {op.op + (op.enclosed_calls > 0 ? "*" : ""), op.api, std::to_string(op.dur.count),
             format_duration(op.dur.total_ns), format_duration(op.dur.mean_ns),
             format_duration(op.dur.p50_ns), format_duration(op.dur.p95_ns),
             format_duration(op.dur.p99_ns), format_duration(op.dur.max_ns),
             op.bytes > 0 ? format_bytes(static_cast<double>(op.bytes)) : "-",
             op.throughput_bytes_per_s ? format_throughput(*op.throughput_bytes_per_s) : "-",
             format_percent(op.wall_share), errors});
    }
    return table.render();
}

std::string render_host(const analysis::HostSummary& h) {
    std::string out = "  " + std::to_string(h.processes_in_tree) + " processes in the tree, " +
                      std::to_string(h.threads_traced) + " threads, " +
                      std::to_string(h.competitor_processes) + " competitor processes outside, " +
                      std::to_string(h.cpu_count) + " CPUs\n";
    out += "  threads on CPU " + format_duration(h.oncpu_ns) + ", preempted " +
           format_duration(h.preempted_ns) + ", asleep " + format_duration(h.blocked_ns) +
           ", run-queue wait after wakeup " + format_duration(h.runq_wait_ns) + "\n";
    out += "  switches: " + std::to_string(h.voluntary_switches) + " voluntary, " +
           std::to_string(h.involuntary_switches) + " involuntary; " +
           std::to_string(h.offcpu_intervals) + " off-CPU intervals stored\n";
    out += "  page allocations: " + std::to_string(h.page_allocs) + " (" +
           format_bytes(static_cast<double>(h.page_alloc_bytes)) + ")\n";
    if (h.snapshots > 0) {
        out += "  system: CPU busy " + format_decimal(h.cpu_busy_pct_mean, 0) + "% mean, " +
               format_decimal(h.cpu_busy_pct_max, 0) + "% max; " +
               format_decimal(h.procs_running_mean, 1) + " runnable tasks on average; load1 max " +
               format_decimal(h.load1_max, 1) + "\n";
    }
    return out;
}

}  // namespace

std::string render_stats(const analysis::TraceStats& stats, const std::string& db,
                         const TerminalStyle& style) {
    std::string out = "Trace: " + printable(db) + " (" + printable(stats.session.host) + ", " +
                      std::to_string(stats.session.cpu_count) + " CPUs, source " +
                      printable(stats.session.source) + ")\n";
    out += "Range: " + format_duration(stats.range.start_ns) + " .. " +
           format_duration(stats.range.end_ns) + " (" + format_duration(stats.range.dur_ns()) +
           "); " + std::to_string(stats.calls) + " CUDA calls, " +
           std::to_string(stats.error_calls) + " returned an error\n";
    if (stats.data_quality.data_loss) {
        out += style.red("Data loss: " + std::to_string(stats.data_quality.events_lost) +
                         " events were lost while recording") +
               "\n";
    }
    if (!stats.ops.empty()) {
        out += "\n" + style.bold("CUDA calls") +
               " (exact percentiles; * = includes driver calls made inside runtime calls)\n" +
               render_ops(stats);
    }
    out += "\n" + style.bold("Host") + "\n" + render_host(stats.host);
    return out + render_data_quality(stats.data_quality, style, TextDetail::kEverything);
}

}  // namespace causeway::report
