#pragma once
// Finding the CUDA runtime (libcudart), driver (libcuda) and NCCL (libnccl) libraries to attach
// uprobes to (pip's nvidia-nccl wheel is found in the maps of the process that loaded it). No
// libbpf here: the CLI's `check` and the MCP `get_check` tool use it too.
//
// Places, in order: paths given with --cuda-lib, the memory maps of the traced processes (finds
// conda and venv copies and fake runtimes at any path), LD_LIBRARY_PATH, CUDA_HOME, the ldconfig
// cache and standard folders. A library is reported once, by its resolved path (uprobes attach to
// the file, so two symlinks to one file are one library).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace causeway::collector {

enum class CudaLibraryKind { kRuntime, kDriver, kNccl, kLast = kNccl };
const char* cuda_library_kind_name(CudaLibraryKind kind);  // "runtime" / "driver" / "nccl"

struct CudaLibrary {
    std::string path;  // resolved (realpath) file
    CudaLibraryKind kind;
    std::string found_by;  // where it was found, e.g. "--cuda-lib", "/proc/123/maps", "ldconfig"
};

struct DiscoveryRequest {
    std::vector<std::string> explicit_paths;     // --cuda-lib
    std::vector<int> pids;                       // processes whose maps are read
    std::optional<std::string> ld_library_path;  // of the traced command; absent: not searched
    std::optional<std::string> cuda_home;        // CUDA_HOME; absent: not searched
    bool use_ldconfig = true;
    bool use_standard_folders = true;
    std::string proc_root = "/proc";  // tests point this at a fixture tree
};

struct DiscoveryResult {
    std::vector<CudaLibrary> libraries;
    std::vector<std::string> searched;  // every place looked, for "not found" messages
    std::vector<std::string> problems;  // e.g. a --cuda-lib path that does not exist

    bool has(CudaLibraryKind kind) const;
};

// The kind of a CUDA library from its file name (libcudart.so[.N...], libcuda.so[.N...],
// libnccl.so[.N...]); empty
// for anything else, including static archives and the link-time stubs in .../stubs/.
std::optional<CudaLibraryKind> cuda_library_kind(std::string_view path);

// Unique file paths of the file-backed mappings in a /proc/PID/maps text, in order of appearance.
std::vector<std::string> mapped_files(std::string_view maps_text);

// Paths of the libraries in the output of `ldconfig -p` that are CUDA libraries.
std::vector<std::string> cuda_libraries_in_ldconfig(std::string_view ldconfig_output);

DiscoveryResult discover_cuda_libraries(const DiscoveryRequest& request);

// The CUDA libraries mapped by one process right now (reads PROC_ROOT/PID/maps), resolved.
std::vector<CudaLibrary> cuda_libraries_of_process(int pid, const std::string& proc_root = "/proc");

}  // namespace causeway::collector
