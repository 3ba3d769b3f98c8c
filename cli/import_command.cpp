// causeway import --from ingero IN OUT: converts another tool's trace DB into a Causeway trace and
// says plainly what could not be converted.
#include <cstdio>
#include <memory>
#include <string>

#include "cli/commands.hpp"
#include "interop/import_limits.hpp"
#include "interop/ingero_import.hpp"
#include "tracedb/records.hpp"

namespace causeway::cli {
namespace {

struct ImportArgs {
    std::string from;
    std::string in_path;
    std::string out_path;
    std::string node;
};

void print_summary(const ImportArgs& args, const interop::ImportSummary& s) {
    using interop::with_commas;
    std::printf("Imported %s (Ingero %s) into %s:\n", args.in_path.c_str(),
                s.ingero_version.c_str(), args.out_path.c_str());
    std::printf(
        "  %s events read: %s CUDA calls, %s off-CPU intervals, %s processes, %s threads,\n"
        "  %s stacks, %s system snapshots, %s per-minute counts, %s page-allocation "
        "buckets\n",
        with_commas(s.events_read).c_str(), with_commas(s.cuda_calls).c_str(),
        with_commas(s.offcpu_intervals).c_str(), with_commas(s.processes).c_str(),
        with_commas(s.threads).c_str(), with_commas(s.stacks).c_str(),
        with_commas(s.snapshots).c_str(), with_commas(s.event_count_rows).c_str(),
        with_commas(s.page_alloc_rows).c_str());
    if (s.ingero_chains > 0) {
        std::printf("  Ingero's own %s causal chains are kept in meta 'ingero.causal_chains'\n",
                    with_commas(s.ingero_chains).c_str());
    }
    if (!s.limits.empty()) {
        std::printf("What could not be converted as it was (also in the data_quality table):\n");
        for (const auto& row : s.limits) {
            std::printf("  [%s] %s\n", tracedb::severity_name(row.severity),
                        row.description.c_str());
        }
    }
    std::printf("Next: causeway explain --db %s\n", args.out_path.c_str());
}

}  // namespace

void add_import_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<ImportArgs>();
    auto* cmd = app.add_subcommand(
        "import",
        "Convert a trace DB recorded by another tool into a new Causeway trace DB "
        "(the input is only read)");
    cmd->add_option("--from", args->from, "Format of IN (ingero: a DB written by `ingero trace`)")
        ->required()
        ->check(CLI::IsMember({"ingero"}));
    cmd->add_option("--node", args->node, "Import only this node of a multi-node Ingero recording");
    cmd->add_option("IN", args->in_path, "The trace DB to convert")->required();
    cmd->add_option("OUT", args->out_path, "The Causeway trace DB to create (must not exist)")
        ->required();
    cmd->callback([args, &exit_code] {
        interop::IngeroImportOptions options;
        if (!args->node.empty()) {
            options.node = args->node;
        }
        auto summary = interop::import_ingero(args->in_path, args->out_path, options);
        if (!summary) {
            std::fprintf(stderr, "causeway import: %s\n", summary.error().message.c_str());
            exit_code = 1;
            return;
        }
        print_summary(*args, *summary);
        exit_code = 0;
    });
}

}  // namespace causeway::cli
