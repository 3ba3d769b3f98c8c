#include "report/readiness_json.hpp"

namespace causeway::report {

using json = nlohmann::json;

json readiness_json(const collector::Readiness& readiness, std::size_t max_processes) {
    json libraries = json::array();
    for (const auto& library : readiness.cuda.libraries) {
        libraries.push_back({{"path", library.path},
                             {"kind", collector::cuda_library_kind_name(library.kind)},
                             {"found_by", library.found_by}});
    }
    json processes = json::array();
    for (std::size_t i = 0; i < readiness.cuda_processes.size() && i < max_processes; ++i) {
        const auto& process = readiness.cuda_processes[i];
        processes.push_back(
            {{"pid", process.pid}, {"comm", process.comm}, {"libraries", process.libraries}});
    }
    return {{"ready", readiness.ready()},
            {"kernel_release", readiness.kernel_release},
            {"btf_present", readiness.btf_present},
            {"btf_path", readiness.btf_path},
            {"privileged", readiness.privileged()},
            {"is_root", readiness.is_root},
            {"has_cap_bpf", readiness.has_cap_bpf},
            {"has_cap_perfmon", readiness.has_cap_perfmon},
            {"tracefs_mounted", readiness.tracefs_mounted},
            {"libcudart_found", readiness.libcudart_found},
            {"libcuda_found", readiness.libcuda_found},
            {"cuda_libraries", std::move(libraries)},
            {"searched", readiness.cuda.searched},
            {"cuda_processes", std::move(processes)},
            {"cuda_process_count", readiness.cuda_processes.size()},
            {"problems", readiness.problems},
            {"warnings", readiness.warnings}};
}

}  // namespace causeway::report
