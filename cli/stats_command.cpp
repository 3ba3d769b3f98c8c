// causeway stats: per-op CUDA statistics (exact percentiles), host summary and data quality of
// a trace, optionally for one process, one op or a time window.
#include <cstdio>
#include <iostream>

#include "analysis/measure/trace_stats.hpp"
#include "cli/commands.hpp"
#include "cli/trace_input.hpp"
#include "report/analysis_json.hpp"
#include "report/stats_text.hpp"
#include "report/terminal_style.hpp"

namespace causeway::cli {
namespace {

struct StatsOptions {
    TraceInputOptions input;
    std::string op;
    bool json = false;
};

int run_stats(const StatsOptions& options) {
    auto input = load_trace_input(options.input);
    if (!input) {
        std::fprintf(stderr, "causeway stats: %s\n", input.error().message.c_str());
        return 2;
    }
    if (!options.op.empty()) {
        input->filter.op = options.op;
        if (auto valid = analysis::validate_filter(input->model, input->filter); !valid) {
            std::fprintf(stderr, "causeway stats: %s\n", valid.error().message.c_str());
            return 2;
        }
    }
    auto stats = analysis::compute_stats(input->model, input->filter);
    if (options.json) {
        std::cout << report::json_text(report::to_json(stats)) << "\n";
    } else {
        std::cout << report::render_stats(stats, trace_label(options.input),
                                          report::TerminalStyle::for_stdout());
    }
    return 0;
}

}  // namespace

void add_stats_command(CLI::App& app, int& exit_code) {
    auto options = std::make_shared<StatsOptions>();
    CLI::App* command =
        app.add_subcommand("stats", "per-op CUDA statistics, host summary and data quality");
    add_trace_input_options(*command, options->input);
    command->add_option("--op", options->op, "only this CUDA op (e.g. cudaMemcpyAsync)");
    command->add_flag("--json", options->json, "print one JSON object instead of text");
    command->callback([options, &exit_code] { exit_code = run_stats(*options); });
}

}  // namespace causeway::cli
