// causeway compare: two recordings of one job, before and after a change: did it help, by how
// much, which cause went away, and which changes are beyond noise.
#include <cstdio>
#include <iostream>

#include "analysis/compare/trace_comparison.hpp"
#include "cli/commands.hpp"
#include "cli/trace_input.hpp"
#include "report/comparison_json.hpp"
#include "report/comparison_text.hpp"

namespace causeway::cli {
namespace {

struct CompareOptions {
    TraceInputOptions before;
    TraceInputOptions after;
    bool json = false;
};

int run_compare(const CompareOptions& options) {
    auto before = load_trace_input(options.before);
    if (!before) {
        std::fprintf(stderr, "causeway compare: before: %s\n", before.error().message.c_str());
        return 2;
    }
    auto after = load_trace_input(options.after);
    if (!after) {
        std::fprintf(stderr, "causeway compare: after: %s\n", after.error().message.c_str());
        return 2;
    }
    analysis::ComparisonOptions comparison_options;
    comparison_options.before = before->filter;
    comparison_options.after = after->filter;
    auto comparison = analysis::compare_traces(before->model, after->model, comparison_options);
    if (!comparison) {
        std::fprintf(stderr, "causeway compare: %s\n", comparison.error().message.c_str());
        return 2;
    }
    if (options.json) {
        std::cout << report::json_text(report::to_json(*comparison)) << "\n";
    } else {
        std::cout << report::render_comparison(*comparison, report::TerminalStyle::for_stdout());
    }
    return 0;
}

}  // namespace

void add_compare_command(CLI::App& app, int& exit_code) {
    auto options = std::make_shared<CompareOptions>();
    CLI::App* command = app.add_subcommand(
        "compare",
        "two recordings before and after a change: throughput, causes gone or new, per-op "
        "latency, and which changes are beyond noise");
    command->add_option("BEFORE", options->before.db, "trace DB recorded before the change")
        ->required();
    command->add_option("AFTER", options->after.db, "trace DB recorded after the change")
        ->required();
    command->add_option("--window-before", options->before.window,
                        "only this window of BEFORE, A..B since its start (e.g. 2s..10s)");
    command->add_option("--window-after", options->after.window,
                        "only this window of AFTER, A..B since its start");
    command->add_flag("--json", options->json, "print one JSON object instead of text");
    command->callback([options, &exit_code] { exit_code = run_compare(*options); });
}

}  // namespace causeway::cli
