#pragma once
// The shape of get_check (ReadinessAnswer) and `causeway check --json`.
// Each struct's describe() names its fields in order, with their descriptions: the JSON
// (write_json) and the tool output schemas (causeway-schemas) are both read from it
// (report/output_shape.hpp explains how).

#include <string>

#include "collector/discover/discovery.hpp"
#include "collector/discover/readiness.hpp"
#include "report/shapes/shared.hpp"
#include "report/tool_answers.hpp"

namespace causeway::collector {

inline const auto kCudaLibraryKindNames =
    report::enum_names<CudaLibraryKind::kLast>(cuda_library_kind_name);

template <class V>
void describe(V& v, const CudaLibrary& library) {
    v.field("path", library.path);
    v.field("kind", std::string(cuda_library_kind_name(library.kind)),
            {.allowed_values = kCudaLibraryKindNames});
    v.field("found_by", library.found_by);
}

template <class V>
void describe(V& v, const CudaProcess& process) {
    v.field("pid", process.pid);
    v.field("comm", process.comm, {.description = "Untrusted: process name from the system."});
    v.field("libraries", process.libraries);
}

}  // namespace causeway::collector

namespace causeway::report {

template <class V>
void describe(V& v, const ReadinessAnswer& answer) {
    const collector::Readiness& r = answer.readiness;
    v.no_other_fields();
    v.field("ready", r.ready(),
            {.description = "True when nothing stops recording (problems is empty)."});
    v.field("kernel_release", r.kernel_release);
    v.field("btf_present", r.btf_present);
    v.field("btf_path", r.btf_path);
    v.field("privileged", r.privileged(),
            {.description = "root, or CAP_BPF and CAP_PERFMON (of the server process)."});
    v.field("is_root", r.is_root);
    v.field("has_cap_bpf", r.has_cap_bpf);
    v.field("has_cap_perfmon", r.has_cap_perfmon);
    v.field("tracefs_mounted", r.tracefs_mounted,
            {.description = "Informational: the collector does not need tracefs."});
    v.field("libcudart_found", r.libcudart_found);
    v.field("libcuda_found", r.libcuda_found);
    v.field("cuda_libraries", r.cuda.libraries);
    v.field("searched", r.cuda.searched, {.description = "Every place looked for CUDA libraries."});
    v.field("cuda_processes", first(r.cuda_processes, answer.max_processes),
            {.max_items = kMaxCudaProcessesListed});
    v.field("cuda_process_count", r.cuda_processes.size(),
            {.description = "All processes with CUDA mapped, including those not listed.",
             .minimum = 0});
    v.field("problems", r.problems,
            {.description = "What stops recording, each saying what to do."});
    v.field("warnings", r.warnings);
}

}  // namespace causeway::report
