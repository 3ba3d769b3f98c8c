#include "collector/record/preflight.hpp"

#include <cstdlib>
#include <filesystem>
#include <string>

#include "collector/attach/launcher.hpp"
#include "collector/discover/readiness.hpp"
#include "collector/record/proc_walk.hpp"

namespace causeway::collector {

Status preflight(const RecordOptions& options) {
    if (auto problem = privilege_problem(current_privileges()); !problem.empty()) {
        return Error{problem};
    }
    if (!std::filesystem::exists("/sys/kernel/btf/vmlinux")) {
        return Error{
            "kernel BTF /sys/kernel/btf/vmlinux is missing: the collector needs a kernel "
            "built with CONFIG_DEBUG_INFO_BTF=y"};
    }
    if (!options.command.empty()) {
        // Before the DB is created: a command that cannot run leaves no trace blaming CUDA.
        if (auto status = check_runnable(options.command.front()); !status) {
            return status;
        }
    }
    for (int pid : options.pids) {
        if (!std::filesystem::exists("/proc/" + std::to_string(pid))) {
            return Error{"pid " + std::to_string(pid) + " is not running (no /proc/" +
                         std::to_string(pid) + ")"};
        }
    }
    return Ok{};
}

Result<DiscoveryResult> discover(const RecordOptions& options) {
    DiscoveryRequest request;
    request.explicit_paths = options.cuda_libs;
    request.pids = with_descendants(options.pids);
    if (const char* path = std::getenv("LD_LIBRARY_PATH")) {
        request.ld_library_path = path;  // the command inherits it
    }
    if (const char* home = std::getenv("CUDA_HOME")) {
        request.cuda_home = home;
    }
    DiscoveryResult result = discover_cuda_libraries(request);
    if (!result.problems.empty()) {
        return Error{result.problems.front()};
    }
    if (result.libraries.empty() && options.command.empty()) {
        std::string searched;
        for (const auto& place : result.searched) {
            searched += "\n  " + place;
        }
        return Error{"no libcudart or libcuda found; looked in:" + searched +
                     "\npass --cuda-lib PATH to the library the process uses"};
    }
    return result;
}

}  // namespace causeway::collector
