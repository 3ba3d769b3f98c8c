// causeway explain: the diagnosis of a trace (verdict, causal chains, processes), as text for a
// person or as one JSON object for programs.
#include <cstdio>
#include <iostream>

#include "analysis/diagnose/diagnosis.hpp"
#include "cli/commands.hpp"
#include "cli/trace_input.hpp"
#include "report/analysis_json.hpp"
#include "report/diagnosis_text.hpp"

namespace causeway::cli {
namespace {

struct ExplainOptions {
    TraceInputOptions input;
    bool json = false;
    bool threads = false;
    bool all_processes = false;
    bool verbose = false;
};

int run_explain(const ExplainOptions& options) {
    auto input = load_trace_input(options.input);
    if (!input) {
        std::fprintf(stderr, "causeway explain: %s\n", input.error().message.c_str());
        return 2;
    }
    analysis::DiagnosisOptions diagnosis_options;
    diagnosis_options.filter = input->filter;
    diagnosis_options.breakdown.include_threads = options.threads;
    diagnosis_options.breakdown.max_processes = options.all_processes ? 0 : 50;
    auto diagnosis = analysis::diagnose(input->model, diagnosis_options);
    if (options.json) {
        std::cout << report::json_text(report::to_json(diagnosis)) << "\n";
    } else {
        std::cout << report::render_diagnosis(
            diagnosis, trace_label(options.input), report::TerminalStyle::for_stdout(),
            options.verbose ? report::TextDetail::kEverything : report::TextDetail::kSummary);
    }
    return 0;
}

}  // namespace

void add_explain_command(CLI::App& app, int& exit_code) {
    auto options = std::make_shared<ExplainOptions>();
    CLI::App* command = app.add_subcommand(
        "explain", "why the GPU waits: verdict, causal chains with evidence, processes");
    add_trace_input_options(*command, options->input);
    command->add_flag("--json", options->json, "print one JSON object instead of text");
    command->add_flag("--threads", options->threads, "list the threads of each process");
    command->add_flag("--all-processes", options->all_processes,
                      "list every process (default: the first 50)");
    command->add_flag("--verbose", options->verbose,
                      "every data-quality counter and every process row (default: one screen: "
                      "counters that are not zero, and outside processes that took at least 1% "
                      "of the recording in CPU)");
    command->callback([options, &exit_code] { exit_code = run_explain(*options); });
}

}  // namespace causeway::cli
