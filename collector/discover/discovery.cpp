#include "collector/discover/discovery.hpp"

#include <cstdio>
#include <filesystem>
#include <memory>
#include <regex>
#include <set>
#include <sstream>

#include "collector/discover/text_files.hpp"

namespace causeway::collector {

namespace fs = std::filesystem;

namespace {

// Folders where distributions and the CUDA installers put the libraries.
constexpr const char* kStandardFolders[] = {
    "/usr/local/cuda/lib64",
    "/usr/local/cuda/targets/x86_64-linux/lib",
    "/usr/lib/x86_64-linux-gnu",
    "/usr/lib64",
    "/usr/lib",
    "/usr/lib/wsl/lib",
};

std::string run_and_capture(const char* command) {
    std::string output;
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen(command, "r"), ::pclose);
    if (!pipe) {
        return output;
    }
    char buffer[4096];
    while (std::size_t n = std::fread(buffer, 1, sizeof(buffer), pipe.get())) {
        output.append(buffer, n);
    }
    return output;
}

// Collects libraries, deduplicated by resolved path.
class Collector {
  public:
    explicit Collector(DiscoveryResult& result) : result_(result) {}

    void add(const std::string& path, const std::string& found_by) {
        auto kind = cuda_library_kind(path);
        std::error_code error;
        fs::path resolved = fs::canonical(path, error);
        if (!kind || error || !fs::is_regular_file(resolved, error)) {
            return;
        }
        if (seen_.insert(resolved.string()).second) {
            result_.libraries.push_back({resolved.string(), *kind, found_by});
        }
    }

    void add_folder(const std::string& folder, const std::string& found_by) {
        result_.searched.push_back(folder + " (" + found_by + ")");
        std::error_code error;
        for (const auto& entry : fs::directory_iterator(folder, error)) {
            add(entry.path().string(), found_by);
        }
    }

  private:
    DiscoveryResult& result_;
    std::set<std::string> seen_;
};

}  // namespace

const char* cuda_library_kind_name(CudaLibraryKind kind) {
    switch (kind) {
        case CudaLibraryKind::kRuntime:
            return "runtime";
        case CudaLibraryKind::kDriver:
            return "driver";
        case CudaLibraryKind::kNccl:
            return "nccl";
    }
    return "unknown";
}

bool DiscoveryResult::has(CudaLibraryKind kind) const {
    for (const auto& library : libraries) {
        if (library.kind == kind) {
            return true;
        }
    }
    return false;
}

std::optional<CudaLibraryKind> cuda_library_kind(std::string_view path) {
    if (path.find("/stubs/") != std::string_view::npos) {
        return std::nullopt;  // link-time stubs are never what a process runs
    }
    static const std::regex runtime(R"(libcudart\.so(\.[0-9]+)*)");
    static const std::regex driver(R"(libcuda\.so(\.[0-9]+)*)");
    static const std::regex nccl(R"(libnccl\.so(\.[0-9]+)*)");
    std::string name = fs::path(path).filename().string();
    if (std::regex_match(name, runtime)) {
        return CudaLibraryKind::kRuntime;
    }
    if (std::regex_match(name, driver)) {
        return CudaLibraryKind::kDriver;
    }
    if (std::regex_match(name, nccl)) {
        return CudaLibraryKind::kNccl;
    }
    return std::nullopt;
}

std::vector<std::string> mapped_files(std::string_view maps_text) {
    // Each line: address perms offset dev inode [path]; a path starts with '/'. A deleted file is
    // reported with a " (deleted)" suffix and can no longer be attached to, so it is skipped.
    std::vector<std::string> files;
    std::set<std::string> seen;
    std::istringstream lines{std::string(maps_text)};
    std::string line;
    while (std::getline(lines, line)) {
        auto slash = line.find('/');
        if (slash == std::string::npos) {
            continue;
        }
        std::string path = line.substr(slash);
        if (path.ends_with(" (deleted)")) {
            continue;
        }
        if (seen.insert(path).second) {
            files.push_back(path);
        }
    }
    return files;
}

std::vector<std::string> cuda_libraries_in_ldconfig(std::string_view ldconfig_output) {
    // Lines look like: "\tlibcudart.so.13 (libc6,x86-64) => /usr/local/cuda/lib64/libcudart.so.13"
    std::vector<std::string> paths;
    std::istringstream lines{std::string(ldconfig_output)};
    std::string line;
    while (std::getline(lines, line)) {
        auto arrow = line.find(" => ");
        if (arrow == std::string::npos) {
            continue;
        }
        std::string path = line.substr(arrow + 4);
        if (cuda_library_kind(path)) {
            paths.push_back(path);
        }
    }
    return paths;
}

std::vector<CudaLibrary> cuda_libraries_of_process(int pid, const std::string& proc_root) {
    DiscoveryResult result;
    Collector collector(result);
    std::string maps_path = proc_root + "/" + std::to_string(pid) + "/maps";
    for (const auto& file : mapped_files(read_text_file(maps_path))) {
        collector.add(file, maps_path);
    }
    return result.libraries;
}

DiscoveryResult discover_cuda_libraries(const DiscoveryRequest& request) {
    DiscoveryResult result;
    Collector collector(result);

    for (const auto& path : request.explicit_paths) {
        result.searched.push_back(path + " (--cuda-lib)");
        std::error_code error;
        if (!fs::exists(path, error)) {
            result.problems.push_back("--cuda-lib " + path + " does not exist");
        } else if (!cuda_library_kind(path) && !fs::is_directory(path, error)) {
            result.problems.push_back("--cuda-lib " + path +
                                      " is not named like a CUDA library (libcudart.so*, "
                                      "libcuda.so* or libnccl.so*)");
        } else if (fs::is_directory(path, error)) {
            collector.add_folder(path, "--cuda-lib");
        } else {
            collector.add(path, "--cuda-lib");
        }
    }
    for (int pid : request.pids) {
        std::string maps_path = request.proc_root + "/" + std::to_string(pid) + "/maps";
        result.searched.push_back(maps_path);
        for (const auto& file : mapped_files(read_text_file(maps_path))) {
            collector.add(file, maps_path);
        }
    }
    if (request.ld_library_path) {
        for (const auto& folder : split(*request.ld_library_path, ':')) {
            collector.add_folder(folder, "LD_LIBRARY_PATH");
        }
    }
    if (request.cuda_home && !request.cuda_home->empty()) {
        for (const char* sub : {"/lib64", "/lib", "/targets/x86_64-linux/lib"}) {
            collector.add_folder(*request.cuda_home + sub, "CUDA_HOME");
        }
    }
    if (request.use_ldconfig) {
        result.searched.push_back("ldconfig -p");
        for (const auto& path :
             cuda_libraries_in_ldconfig(run_and_capture("/sbin/ldconfig -p 2>/dev/null"))) {
            collector.add(path, "ldconfig");
        }
    }
    if (request.use_standard_folders) {
        for (const char* folder : kStandardFolders) {
            collector.add_folder(folder, "standard folder");
        }
    }
    return result;
}

}  // namespace causeway::collector
