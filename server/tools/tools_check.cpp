// get_check: can this machine record? (kernel, BTF, privileges, CUDA libraries, CUDA processes)
#include <fmt/format.h>

#include <chrono>
#include <mutex>

#include "collector/readiness.hpp"
#include "server/readiness_json.hpp"
#include "server/tools/tool_schemas.hpp"
#include "server/tools/tools.hpp"

namespace causeway::server {
namespace {

// Most processes with CUDA mapped that are listed; the count says how many there were.
constexpr std::size_t kMaxCudaProcesses = 50;
// A readiness check reads every process's memory maps (about 100 ms); an assistant that asks
// again within this long gets the same answer, which is still current for what it decides.
constexpr std::chrono::seconds kReadinessMaxAge{5};

std::string render(const json& check) {
    std::string text = fmt::format(
        "{}\nkernel {} | BTF {} | privileges {} | libcudart {} | libcuda {}\n",
        check["ready"].get<bool>() ? "Ready to record." : "Not ready to record.",
        check["kernel_release"].get<std::string>(), check["btf_present"].get<bool>() ? "yes" : "no",
        check["privileged"].get<bool>() ? "yes" : "no (root or CAP_BPF+CAP_PERFMON needed)",
        check["libcudart_found"].get<bool>() ? "found" : "not found",
        check["libcuda_found"].get<bool>() ? "found" : "not found");
    for (const auto& library : check["cuda_libraries"]) {
        text +=
            fmt::format("  {} {} (found by {})\n", library["kind"].get<std::string>(),
                        library["path"].get<std::string>(), library["found_by"].get<std::string>());
    }
    for (const auto& problem : check["problems"]) {
        text += "Problem: " + problem.get<std::string>() + "\n";
    }
    for (const auto& warning : check["warnings"]) {
        text += "Warning: " + warning.get<std::string>() + "\n";
    }
    text += fmt::format("{} running process(es) have a CUDA library mapped.\n",
                        check["cuda_process_count"].get<std::size_t>());
    for (const auto& process : check["cuda_processes"]) {
        text += fmt::format("  pid {} {}\n", process["pid"].get<int>(),
                            process["comm"].get<std::string>());
    }
    return text;
}

json recent_readiness() {
    static std::mutex mutex;
    static std::chrono::steady_clock::time_point taken;
    static json cached;
    std::lock_guard lock(mutex);
    auto now = std::chrono::steady_clock::now();
    if (cached.is_null() || now - taken > kReadinessMaxAge) {
        cached = readiness_json(collector::check_readiness(), kMaxCudaProcesses);
        taken = now;
    }
    return cached;
}

}  // namespace

ToolSpec make_check_tool() {
    return ToolSpec{
        "get_check",
        "Can this machine record?",
        "Checks whether the machine the server runs on can record a trace: kernel release, BTF, "
        "root or CAP_BPF+CAP_PERFMON, the CUDA runtime/driver libraries found (and every place "
        "looked), and running processes that have a CUDA library mapped (at most 50 listed). "
        "Use it before asking someone to record, or when a trace lacks CUDA calls." +
            std::string(kUntrustedStringsSentence),
        tool_schema("get_check.input.json"),
        tool_schema("get_check.output.json"),
        [](const json&, const TraceSet&, ToolContext&) -> Result<ToolAnswer> {
            json check = recent_readiness();
            std::string text = render(check);
            return ToolAnswer{std::move(check), std::move(text)};
        }};
}

}  // namespace causeway::server
