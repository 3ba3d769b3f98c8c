#include "report/readiness_text.hpp"

namespace causeway::report {
namespace {

std::string yes_no(bool value, const TerminalStyle& style) {
    return value ? style.green("yes") : style.red("no");
}

}  // namespace

std::string render_readiness(const collector::Readiness& r, const TerminalStyle& style) {
    std::string out = std::string("Ready to record: ") +
                      (r.ready() ? style.bold(style.green("yes")) : style.bold(style.red("no"))) +
                      "\n";
    out += "  kernel          " + printable(r.kernel_release) + "\n";
    out +=
        "  BTF             " + yes_no(r.btf_present, style) + " (" + printable(r.btf_path) + ")\n";
    out += "  privileges      " + yes_no(r.privileged(), style) +
           " (root: " + (r.is_root ? "yes" : "no") +
           ", CAP_BPF: " + (r.has_cap_bpf ? "yes" : "no") +
           ", CAP_PERFMON: " + (r.has_cap_perfmon ? "yes" : "no") + ")\n";
    out += "  libcudart       " + yes_no(r.libcudart_found, style) + "\n";
    out += "  libcuda         " + yes_no(r.libcuda_found, style) + "\n";
    for (const auto& library : r.cuda.libraries) {
        out += "    " + std::string(collector::cuda_library_kind_name(library.kind)) + "  " +
               printable(library.path) + "  (found by " + printable(library.found_by) + ")\n";
    }
    if (!r.libcudart_found || !r.libcuda_found) {
        out += "  looked in:\n";
        for (const auto& place : r.cuda.searched) {
            out += "    " + printable(place) + "\n";
        }
    }
    out += "  processes using CUDA now: " + std::to_string(r.cuda_processes.size()) + "\n";
    for (const auto& p : r.cuda_processes) {
        out += "    pid " + std::to_string(p.pid) + "  " + printable(p.comm) + "\n";
    }
    for (const auto& problem : r.problems) {
        out += style.red("Problem: ") + printable(problem) + "\n";
    }
    for (const auto& warning : r.warnings) {
        out += style.yellow("Warning: ") + printable(warning) + "\n";
    }
    return out;
}

}  // namespace causeway::report
