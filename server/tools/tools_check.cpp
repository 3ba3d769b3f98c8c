// get_check: can this machine record? (kernel, BTF, privileges, CUDA libraries, CUDA processes)
#include <chrono>
#include <mutex>
#include <optional>

#include "collector/discover/readiness.hpp"
#include "report/shapes/readiness.hpp"
#include "server/tools/tool_runner.hpp"
#include "server/tools/tools.hpp"

namespace causeway::server {
namespace {

// A readiness check reads every process's memory maps (about 100 ms); an assistant that asks
// again within this long gets the same answer, which is still current for what it decides.
constexpr std::chrono::seconds kReadinessMaxAge{5};

ToolAnswer recent_readiness() {
    static std::mutex mutex;
    static std::chrono::steady_clock::time_point taken;
    static std::optional<ToolAnswer> cached;
    std::lock_guard lock(mutex);
    auto now = std::chrono::steady_clock::now();
    if (!cached || now - taken > kReadinessMaxAge) {
        cached = tool_answer(
            report::ReadinessAnswer{collector::check_readiness(), report::kMaxCudaProcessesListed});
        taken = now;
    }
    return *cached;
}

// get_check takes no arguments.
struct NoInput {};

template <class V>
void describe(V& /*v*/, NoInput& /*in*/) {}

}  // namespace

void add_check_tool(ToolRegistry& tools) {
    tools.add_tool<NoInput, report::ReadinessAnswer>(
        {.name = "get_check",
         .title = "Can this machine record?",
         .description =
             "Checks whether the machine the server runs on can record a trace: kernel release, "
             "BTF, root or CAP_BPF+CAP_PERFMON, the CUDA runtime/driver libraries found (and "
             "every place looked), and running processes that have a CUDA library mapped (at "
             "most " +
             std::to_string(report::kMaxCudaProcessesListed) +
             " listed). Use it before asking someone to record, or when a trace lacks CUDA "
             "calls." +
             std::string(kUntrustedStringsSentence)},
        [](const NoInput&, const ToolRequest&) -> Result<ToolAnswer> {
            return recent_readiness();
        });
}

}  // namespace causeway::server
