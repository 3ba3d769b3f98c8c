// causeway check: can this machine record? Kernel, BTF, privileges, CUDA libraries found (and
// where we looked), processes using CUDA now, as text or (--json) as the object the MCP tool
// get_check returns. Exit code 0 when ready, 1 when something stops recording.
#include <iostream>
#include <limits>

#include "cli/commands.hpp"
#include "collector/readiness.hpp"
#include "report/readiness_json.hpp"
#include "report/terminal_style.hpp"

namespace causeway::cli {
namespace {

std::string yes_no(bool value, const report::TerminalStyle& style) {
    return value ? style.green("yes") : style.red("no");
}

std::string render(const collector::Readiness& r, const report::TerminalStyle& style) {
    std::string out = std::string("Ready to record: ") +
                      (r.ready() ? style.bold(style.green("yes")) : style.bold(style.red("no"))) +
                      "\n";
    out += "  kernel          " + report::printable(r.kernel_release) + "\n";
    out += "  BTF             " + yes_no(r.btf_present, style) + " (" +
           report::printable(r.btf_path) + ")\n";
    out += "  privileges      " + yes_no(r.privileged(), style) +
           " (root: " + (r.is_root ? "yes" : "no") +
           ", CAP_BPF: " + (r.has_cap_bpf ? "yes" : "no") +
           ", CAP_PERFMON: " + (r.has_cap_perfmon ? "yes" : "no") + ")\n";
    out += "  libcudart       " + yes_no(r.libcudart_found, style) + "\n";
    out += "  libcuda         " + yes_no(r.libcuda_found, style) + "\n";
    for (const auto& library : r.cuda.libraries) {
        out += "    " + std::string(collector::cuda_library_kind_name(library.kind)) + "  " +
               report::printable(library.path) + "  (found by " +
               report::printable(library.found_by) + ")\n";
    }
    if (!r.libcudart_found || !r.libcuda_found) {
        out += "  looked in:\n";
        for (const auto& place : r.cuda.searched) {
            out += "    " + report::printable(place) + "\n";
        }
    }
    out += "  processes using CUDA now: " + std::to_string(r.cuda_processes.size()) + "\n";
    for (const auto& p : r.cuda_processes) {
        out += "    pid " + std::to_string(p.pid) + "  " + report::printable(p.comm) + "\n";
    }
    for (const auto& problem : r.problems) {
        out += style.red("Problem: ") + report::printable(problem) + "\n";
    }
    for (const auto& warning : r.warnings) {
        out += style.yellow("Warning: ") + report::printable(warning) + "\n";
    }
    return out;
}

struct CheckOptions {
    collector::ReadinessOptions readiness;
    bool json = false;
};

}  // namespace

void add_check_command(CLI::App& app, int& exit_code) {
    auto options = std::make_shared<CheckOptions>();
    CLI::App* command = app.add_subcommand(
        "check", "can this machine record? kernel, BTF, privileges, CUDA libraries, processes");
    command->add_option("--cuda-lib", options->readiness.cuda_lib_paths,
                        "a CUDA library to check, as given to causeway-collector --cuda-lib");
    command->add_flag("--json", options->json, "print one JSON object (every process listed)");
    command->callback([options, &exit_code] {
        auto readiness = collector::check_readiness(options->readiness);
        if (options->json) {
            std::cout << report::readiness_json(readiness, std::numeric_limits<std::size_t>::max())
                             .dump(2)
                      << "\n";
        } else {
            std::cout << render(readiness, report::TerminalStyle::for_stdout());
        }
        exit_code = readiness.ready() ? 0 : 1;
    });
}

}  // namespace causeway::cli
