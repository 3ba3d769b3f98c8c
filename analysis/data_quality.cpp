#include "analysis/data_quality.hpp"

#include <algorithm>

namespace causeway::analysis {
namespace {

int severity_rank(const std::string& severity) {
    return severity == "data_loss" ? 0 : severity == "error" ? 1 : 2;
}

bool any_offcpu(const TraceModel& model) {
    return std::any_of(model.offcpu_by_thread.begin(), model.offcpu_by_thread.end(),
                       [](const auto& list) { return !list.empty(); });
}

}  // namespace

DataQualityReport data_quality_report(const TraceModel& model) {
    DataQualityReport report;
    report.items = model.data_quality;
    auto derived = [&](const char* counter, std::int64_t value, const char* severity,
                       std::string description) {
        report.items.push_back({"analysis", counter, value, severity, std::move(description)});
    };
    if (!model.session.stop_ns) {
        derived("unfinished_recording", 1, "error",
                "the session has no stop time: the recorder was killed or is still running, so "
                "the end of the trace may be missing");
    }
    if (model.session.imported()) {
        derived("imported_trace", 1, "info",
                "imported from " + model.session.source.substr(7) +
                    ": host events are known only as counts per time bucket where the source "
                    "kept no intervals, so a given call cannot be proven preempted");
    } else if (model.calls.size() > 0 && !any_offcpu(model)) {
        derived("no_offcpu_intervals", 1, "error",
                "the trace has CUDA calls but no off-CPU intervals: scheduling was not recorded, "
                "so CPU contention can be neither proven nor ruled out");
    }
    for (const auto& probe : model.probes) {
        if (!probe.attached && probe.required) {
            derived("required_probe_missing", 1, "error",
                    probe.symbol + " (" + probe.kind +
                        ") was not attached: " + probe.error.value_or("no reason recorded"));
        }
    }
    for (const auto& note : model.notes) {
        derived("reader_note", 1, "info", note);
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
