#include "analysis/diagnose/data_quality.hpp"

#include <algorithm>

#include "analysis/model/text_caps.hpp"
#include "tracedb/records.hpp"

namespace causeway::analysis {
namespace {

int severity_rank(const std::string& severity) {
    return severity == "data_loss" ? 0 : severity == "error" ? 1 : 2;
}

bool has_counter(const std::vector<DataQualityItem>& items, tracedb::DataQualityCounter counter) {
    return std::any_of(items.begin(), items.end(),
                       [counter](const auto& item) { return item.is(counter); });
}

// A recording of a command (not of --pid processes, whose command_line is "pid N ...") whose
// process tree never exec'd: the process the collector forked never became the command. Newer
// collectors say so in their own row; this finds it in traces of older ones.
bool command_never_started(const TraceModel& model) {
    const auto& command = model.session.command_line;
    bool attached_to_pids = command && command->rfind("pid ", 0) == 0 &&
                            command->find_first_not_of("0123456789 ", 4) == std::string::npos;
    if (model.session.imported() || !command || attached_to_pids || model.calls.size() > 0 ||
        has_counter(model.data_quality, tracedb::DataQualityCounter::kCommandNotStarted)) {
        return false;
    }
    return std::none_of(model.processes.begin(), model.processes.end(),
                        [](const ProcessInfo& p) { return p.in_tree && p.exec_ns; });
}

bool any_offcpu(const TraceModel& model) {
    return std::any_of(model.offcpu_by_thread.begin(), model.offcpu_by_thread.end(),
                       [](const auto& list) { return !list.empty(); });
}

}  // namespace

DataQualityReport data_quality_report(const TraceModel& model) {
    DataQualityReport report;
    report.items = model.data_quality;
    auto derived = [&](tracedb::DataQualityCounter counter, std::int64_t value,
                       std::string description) {
        report.items.push_back(analysis_finding(counter, value, std::move(description)));
    };
    using tracedb::DataQualityCounter;
    if (command_never_started(model)) {
        derived(DataQualityCounter::kCommandNeverRan, 1,
                "the traced command (" + capped(*model.session.command_line, kTextBytes) +
                    ") never ran: the process the collector started never executed it (was "
                    "the command found?), so nothing of it was recorded");
    }
    if (!model.session.stop_ns &&
        !has_counter(report.items, DataQualityCounter::kImpossibleStopTime)) {
        derived(DataQualityCounter::kUnfinishedRecording, 1,
                "the session has no stop time: the recorder was killed, could not write (a "
                "full disk), or is still running, so the end of the trace may be missing");
    }
    if (model.session.imported()) {
        derived(DataQualityCounter::kImportedTrace, 1,
                "imported from " + model.session.source.substr(7) +
                    ": host events are known only as counts per time bucket where the source "
                    "kept no intervals, so a given call cannot be proven preempted");
    } else if (model.calls.size() > 0 && !any_offcpu(model)) {
        derived(DataQualityCounter::kNoOffcpuIntervals, 1,
                "the trace has CUDA calls but no off-CPU intervals: scheduling was not recorded, "
                "so CPU contention can be neither proven nor ruled out");
    }
    std::int64_t absent = 0;
    std::string absent_names;
    for (const auto& probe : model.probes) {
        if (probe.attached) {
            continue;
        }
        if (probe.error == tracedb::kSymbolNotExported) {
            // A function the library does not have cannot be called through it: nothing lost.
            if (probe.kind == "uprobe") {
                absent_names += (absent++ == 0 ? "" : ", ") + probe.symbol;
            }
        } else if (probe.required) {
            derived(DataQualityCounter::kRequiredProbeMissing, 1,
                    probe.symbol + " (" + probe.kind +
                        ") was not attached: " + probe.error.value_or("no reason recorded"));
        }
    }
    if (absent > 0) {
        derived(DataQualityCounter::kSymbolsNotExported, absent,
                "CUDA functions the probed libraries do not export, so no call to them can "
                "happen there (a minimal or older runtime): " +
                    capped(absent_names, kTextBytes));
    }
    for (const auto& note : model.notes) {
        derived(DataQualityCounter::kReaderNote, 1, note);
    }
    std::stable_sort(report.items.begin(), report.items.end(), [](const auto& a, const auto& b) {
        return severity_rank(a.severity) < severity_rank(b.severity);
    });
    for (const auto& item : report.items) {
        if (item.severity == "data_loss" && item.value > 0) {
            report.data_loss = true;
            report.events_lost += item.value;
        }
    }
    return report;
}

}  // namespace causeway::analysis
