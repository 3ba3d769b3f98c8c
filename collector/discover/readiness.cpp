#include "collector/discover/readiness.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "collector/discover/text_files.hpp"

namespace causeway::collector {

namespace fs = std::filesystem;

namespace {

constexpr int kCapPerfmon = 38;  // linux/capability.h
constexpr int kCapBpf = 39;

std::string first_line(const std::string& text) {
    return text.substr(0, text.find('\n'));
}

std::vector<CudaProcess> processes_with_cuda(const std::string& proc_root) {
    std::vector<CudaProcess> processes;
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(proc_root, error)) {
        const std::string name = entry.path().filename().string();
        if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) {
            continue;
        }
        int pid = std::atoi(name.c_str());
        auto libraries = cuda_libraries_of_process(pid, proc_root);
        if (libraries.empty()) {
            continue;
        }
        CudaProcess process{pid, first_line(read_text_file(entry.path() / "comm")), {}};
        for (const auto& library : libraries) {
            process.libraries.push_back(library.path);
        }
        processes.push_back(std::move(process));
    }
    return processes;
}

std::string searched_list(const DiscoveryResult& cuda) {
    std::string list;
    for (const auto& place : cuda.searched) {
        list += (list.empty() ? "" : ", ") + place;
    }
    return list;
}

}  // namespace

unsigned long long effective_capabilities(const std::string& status_text) {
    std::istringstream lines(status_text);
    std::string line;
    while (std::getline(lines, line)) {
        if (line.rfind("CapEff:", 0) == 0) {
            return std::strtoull(line.c_str() + 7, nullptr, 16);
        }
    }
    return 0;
}

Privileges current_privileges(const std::string& proc_root) {
    auto caps = effective_capabilities(read_text_file(proc_root + "/self/status"));
    return {::geteuid() == 0, ((caps >> kCapBpf) & 1) != 0, ((caps >> kCapPerfmon) & 1) != 0};
}

std::string privilege_problem(const Privileges& p) {
    if (p.is_root || (p.has_cap_bpf && p.has_cap_perfmon)) {
        return {};
    }
    std::string missing = !p.has_cap_bpf && !p.has_cap_perfmon ? "CAP_BPF and CAP_PERFMON"
                          : !p.has_cap_bpf                     ? "CAP_BPF"
                                                               : "CAP_PERFMON";
    return "not running as root and missing " + missing +
           ": run the collector with sudo, or grant it with "
           "`setcap cap_bpf,cap_perfmon,cap_sys_resource+ep causeway-collector`";
}

Readiness check_readiness(const ReadinessOptions& options) {
    Readiness r;
    struct utsname names {};
    if (::uname(&names) == 0) {
        r.kernel_release = names.release;
    }
    r.btf_path = options.btf_path;
    std::error_code error;
    r.btf_present = fs::exists(options.btf_path, error);
    Privileges privileges = current_privileges(options.proc_root);
    r.is_root = privileges.is_root;
    r.has_cap_bpf = privileges.has_cap_bpf;
    r.has_cap_perfmon = privileges.has_cap_perfmon;
    r.tracefs_mounted = fs::exists("/sys/kernel/tracing/trace_pipe", error) ||
                        fs::exists("/sys/kernel/debug/tracing/trace_pipe", error);

    DiscoveryRequest request;
    request.explicit_paths = options.cuda_lib_paths;
    request.proc_root = options.proc_root;
    if (const char* home = std::getenv("CUDA_HOME")) {
        request.cuda_home = home;
    }
    if (const char* path = std::getenv("LD_LIBRARY_PATH")) {
        request.ld_library_path = path;
    }
    r.cuda = discover_cuda_libraries(request);
    r.libcudart_found = r.cuda.has(CudaLibraryKind::kRuntime);
    r.libcuda_found = r.cuda.has(CudaLibraryKind::kDriver);
    r.cuda_processes = processes_with_cuda(options.proc_root);
    for (const auto& process : r.cuda_processes) {
        for (const auto& library : process.libraries) {
            if (cuda_library_kind(library) == CudaLibraryKind::kRuntime) {
                r.libcudart_found = true;
            } else {
                r.libcuda_found = true;
            }
        }
    }

    if (!r.btf_present) {
        r.problems.push_back("kernel BTF " + options.btf_path +
                             " is missing: the collector needs a kernel built with "
                             "CONFIG_DEBUG_INFO_BTF=y (most distribution kernels since 5.4)");
    }
    if (auto problem = privilege_problem(privileges); !problem.empty()) {
        r.problems.push_back(problem);
    }
    for (const auto& problem : r.cuda.problems) {
        r.problems.push_back(problem);
    }
    if (!r.libcudart_found) {
        r.warnings.push_back(
            "no libcudart found (looked in: " + searched_list(r.cuda) +
            "); a traced process that loads one from elsewhere is still found through its "
            "memory maps, or pass --cuda-lib PATH");
    }
    if (!r.libcuda_found) {
        r.warnings.push_back(
            "no libcuda (CUDA driver) found: driver calls will not be recorded "
            "(normal on a machine without a GPU driver)");
    }
    return r;
}

}  // namespace causeway::collector
