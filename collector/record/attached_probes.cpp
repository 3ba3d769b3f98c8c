#include "collector/record/attached_probes.hpp"

#include "collector/record/notes.hpp"

namespace causeway::collector {

Status AttachedProbes::put(const std::vector<tracedb::ProbeRecord>& probes) {
    std::string optional_missing;  // one warning line per call, not one per symbol
    for (const auto& probe : probes) {
        if (!probe.attached && probe.error == tracedb::kSymbolNotExported) {
            // Not in this library at all: nothing can call it there (info, not a loss).
            symbols_not_exported_ += probe.kind == "uretprobe" ? 0 : 1;
            if (options_.verbose) {
                note(options_, probe.library + " does not export " + probe.symbol);
            }
        } else if (!probe.attached) {
            ++(probe.required ? required_missing_ : optional_missing_);
            if (options_.verbose || probe.required) {
                note(options_, "cannot attach " + probe.kind + " " + probe.symbol +
                                   (probe.library.empty() ? "" : " in " + probe.library) + ": " +
                                   probe.error.value_or("unknown error"));
            } else if (probe.kind != "uretprobe") {
                optional_missing += (optional_missing.empty() ? "" : ", ") + probe.symbol;
            }
        }
        if (auto status = writer_.put_probe(probe); !status) {
            return status;
        }
    }
    if (!optional_missing.empty()) {
        note(options_, "warning: optional symbols not attached in " + probes.front().library +
                           ": " + optional_missing +
                           " (calls to them are not recorded; see the probe table)");
    }
    return Ok{};
}

Status AttachedProbes::attach_library(BpfPrograms& programs, const CudaLibrary& library) {
    if (!attached_libraries_.insert(library.path).second) {
        return Ok{};
    }
    if (options_.verbose) {
        note(options_, std::string("attaching to the CUDA ") +
                           cuda_library_kind_name(library.kind) + " " + library.path +
                           " (found by " + library.found_by + ")");
    }
    return put(programs.attach_cuda_library(library));
}

void AttachedProbes::count_missing(LossCounters& losses) const {
    losses.optional_probes_missing = optional_missing_;
    losses.required_probes_missing = required_missing_;
    losses.symbols_not_exported = symbols_not_exported_;
}

}  // namespace causeway::collector
