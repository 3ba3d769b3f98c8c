// What a recording counts: its losses (written at each tick) and, once finished, the summary
// and its one line.
#include <cstdio>

#include "collector/attach/launcher.hpp"
#include "collector/record/recording.hpp"

namespace causeway::collector {

LossCounters Recorder::losses() const {
    LossCounters c;
    c.cuda = programs_->counters(ProbeFamily::kCuda);
    c.sched = programs_->counters(ProbeFamily::kSched);
    c.lifecycle = programs_->counters(ProbeFamily::kLifecycle);
    c.page_alloc = programs_->counters(ProbeFamily::kPageAlloc);
    c.threads_seen_late = registry_.threads_seen_late();
    probes_.count_missing(c);
    if (options_.walks_python()) {
        c.python_walked = true;
        c.python = programs_->python_counters();
        c.python_unresolved_frames = events_.unresolved_python_frames();
    }
    return c;
}

RecordSummary Recorder::summarize(std::int64_t stop_ns) {
    RecordSummary summary;
    summary.db_path = options_.db_path;
    summary.elapsed_s = static_cast<double>(stop_ns) / 1e9;
    summary.cuda_calls = events_.cuda_calls();
    summary.offcpu_intervals = events_.offcpu_intervals();
    summary.processes = root_processes_ + rings_.forks();
    LossCounters loss = losses();
    summary.drops = total_drops(loss);
    summary.unmatched_calls = loss.cuda.unmatched_returns + loss.cuda.entries_lost;
    summary.probes_attached = programs_->attached_count();
    if (child_) {
        summary.command_status = child_->poll_exit();
    }
    return summary;
}

std::string summary_line(const RecordSummary& s) {
    char text[512];
    std::snprintf(text, sizeof(text),
                  "recorded %.1f s: %lld CUDA calls, %lld off-CPU intervals, %lld processes, "
                  "%llu events dropped, %llu CUDA calls unmatched, %lld probes -> %s",
                  s.elapsed_s, static_cast<long long>(s.cuda_calls),
                  static_cast<long long>(s.offcpu_intervals), static_cast<long long>(s.processes),
                  static_cast<unsigned long long>(s.drops),
                  static_cast<unsigned long long>(s.unmatched_calls),
                  static_cast<long long>(s.probes_attached), s.db_path.c_str());
    std::string line = text;
    if (s.command_status) {
        line += " (command " + describe_wait_status(*s.command_status) + ")";
    }
    return line;
}

}  // namespace causeway::collector
