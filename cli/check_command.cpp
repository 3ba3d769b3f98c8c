// causeway check: can this machine record? Kernel, BTF, privileges, CUDA libraries found (and
// where we looked), processes using CUDA now, as text or (--json) as the object the MCP tool
// get_check returns. Exit code 0 when ready, 1 when something stops recording.
#include <iostream>
#include <limits>

#include "cli/commands.hpp"
#include "collector/discover/readiness.hpp"
#include "report/readiness_json.hpp"
#include "report/readiness_text.hpp"
#include "report/terminal_style.hpp"

namespace causeway::cli {
namespace {

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
            std::cout << report::json_text(report::readiness_json(
                             readiness, std::numeric_limits<std::size_t>::max()))
                      << "\n";
        } else {
            std::cout << report::render_readiness(readiness, report::TerminalStyle::for_stdout());
        }
        exit_code = readiness.ready() ? 0 : 1;
    });
}

}  // namespace causeway::cli
