#pragma once
// Can this machine record? One plain report for the CLI's `check` and the MCP `get_check` tool:
// kernel, BTF, privileges, CUDA libraries (and where we looked), and the processes that have a
// CUDA library mapped right now. No libbpf: the check runs without root.

#include <string>
#include <vector>

#include "collector/discover/discovery.hpp"

namespace causeway::collector {

struct CudaProcess {
    int pid = 0;
    std::string comm;
    std::vector<std::string> libraries;  // resolved paths of the CUDA libraries it maps
};

struct Readiness {
    std::string kernel_release;  // uname -r
    std::string btf_path;        // /sys/kernel/btf/vmlinux
    bool btf_present = false;
    bool is_root = false;
    bool has_cap_bpf = false;      // effective CAP_BPF
    bool has_cap_perfmon = false;  // effective CAP_PERFMON
    bool tracefs_mounted = false;  // informational: the collector does not need it
    DiscoveryResult cuda;          // libraries found and every place looked
    bool libcudart_found = false;
    bool libcuda_found = false;
    std::vector<CudaProcess> cuda_processes;
    // What stops recording, each a sentence that says what to do. Empty: ready to record.
    std::vector<std::string> problems;
    // What limits recording without stopping it (e.g. no libcuda: driver calls are not seen).
    std::vector<std::string> warnings;

    bool privileged() const { return is_root || (has_cap_bpf && has_cap_perfmon); }
    bool ready() const { return problems.empty(); }
};

struct ReadinessOptions {
    std::vector<std::string> cuda_lib_paths;  // like --cuda-lib
    std::string proc_root = "/proc";
    std::string btf_path = "/sys/kernel/btf/vmlinux";
};

Readiness check_readiness(const ReadinessOptions& options = {});

// Privileges of the calling process, from PROC_ROOT/self/status (CapEff) and geteuid().
struct Privileges {
    bool is_root = false;
    bool has_cap_bpf = false;
    bool has_cap_perfmon = false;
};
Privileges current_privileges(const std::string& proc_root = "/proc");

// Effective capability bits from a /proc/PID/status text (CapEff: hex mask); 0 when absent.
unsigned long long effective_capabilities(const std::string& status_text);

// The sentence the collector prints when it lacks privileges; empty when it has them.
std::string privilege_problem(const Privileges& privileges);

}  // namespace causeway::collector
