#include "collector/host/session_info.hpp"

#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "collector/host/gpu_link.hpp"
#include "collector/host/system_sampler.hpp"

#ifndef CAUSEWAY_VERSION
#error "CAUSEWAY_VERSION must be defined by the build"
#endif

namespace causeway::collector {

namespace {

std::int64_t clock_ns(clockid_t clock) {
    timespec ts{};
    clock_gettime(clock, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// The value after "key:" on the first line that starts with `key` in a "key: value" file.
std::optional<std::string> field(const std::string& path, const std::string& key) {
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind(key, 0) == 0) {
            auto colon = line.find(':');
            if (colon != std::string::npos) {
                auto value = line.substr(line.find_first_not_of(" \t", colon + 1));
                return value;
            }
        }
    }
    return std::nullopt;
}

std::optional<std::string> gpu_models() {
    std::set<std::string> models;
    std::error_code error;
    for (const auto& gpu : std::filesystem::directory_iterator("/proc/driver/nvidia/gpus", error)) {
        if (auto model = field((gpu.path() / "information").string(), "Model")) {
            models.insert(*model);
        }
    }
    if (models.empty()) {
        return std::nullopt;
    }
    std::string joined;
    for (const auto& model : models) {
        joined += (joined.empty() ? "" : ", ") + model;
    }
    return joined;
}

std::string command_line(const RecordOptions& options) {
    std::string text;
    if (!options.command.empty()) {
        for (const auto& arg : options.command) {
            text += (text.empty() ? "" : " ") + arg;
        }
        return text;
    }
    text = "pid";
    for (int pid : options.pids) {
        text += " " + std::to_string(pid);
    }
    return text;
}

}  // namespace

tracedb::SessionRecord describe_session(const RecordOptions& options) {
    tracedb::SessionRecord s;
    char host[256] = {};
    ::gethostname(host, sizeof(host) - 1);
    s.host = host;
    struct utsname names {};
    if (::uname(&names) == 0) {
        s.kernel = names.release;
        s.machine = names.machine;
    }
    s.cpu_count = ::sysconf(_SC_NPROCESSORS_ONLN);
    s.cpu_model = field("/proc/cpuinfo", "model name");
    std::ifstream meminfo("/proc/meminfo");
    std::stringstream text;
    text << meminfo.rdbuf();
    if (auto memory = parse_meminfo(text.str())) {
        s.mem_total_bytes = memory->first;
    }
    s.gpu = gpu_models();
    if (auto link = options.gpu_link ? options.gpu_link : read_gpu_link()) {
        s.gpu_link_mts = link->mts;
        s.gpu_link_width = link->width;
    }
    s.command_line = command_line(options);
    s.collector_version = CAUSEWAY_VERSION;
    s.collector_flags = options.flags;
    s.offcpu_floor_ns = options.offcpu_floor_ns;
    s.page_bucket_ns = options.page_bucket_ns;
    if (options.walks_python()) {
        s.python_sample_gap_ns = options.python_sample_gap_ns;
    }
    s.start_mono_ns = clock_ns(CLOCK_MONOTONIC);
    s.start_wall_ns = clock_ns(CLOCK_REALTIME);
    return s;
}

}  // namespace causeway::collector
