// causeway export --format perfetto run.db out.json: the trace as Chrome/Perfetto trace-event
// JSON for ui.perfetto.dev.
#include <cstdio>
#include <memory>
#include <string>

#include "cli/commands.hpp"
#include "interop/import_limits.hpp"
#include "interop/perfetto_export.hpp"
#include "tracedb/reader.hpp"

namespace causeway::cli {
namespace {

struct ExportArgs {
    std::string format;
    std::string db_path;
    std::string out_path;
};

int run_export(const ExportArgs& args) {
    auto trace = tracedb::TraceReader::open(args.db_path);
    if (!trace) {
        std::fprintf(stderr, "causeway export: %s\n", trace.error().message.c_str());
        return 1;
    }
    auto summary = interop::export_perfetto(*trace, args.out_path);
    if (!summary) {
        std::fprintf(stderr, "causeway export: %s\n", summary.error().message.c_str());
        return 1;
    }
    using interop::with_commas;
    std::printf(
        "Wrote %s: %s CUDA-call slices, %s off-CPU slices, %s counter samples on %s "
        "thread tracks",
        args.out_path.c_str(), with_commas(summary->cuda_slices).c_str(),
        with_commas(summary->offcpu_slices).c_str(), with_commas(summary->counter_samples).c_str(),
        with_commas(summary->tracks).c_str());
    if (summary->collective_slices > 0) {
        std::printf(", %s NCCL collective slices on the ranks' aligned tracks",
                    with_commas(summary->collective_slices).c_str());
    }
    if (summary->overlap_lanes > 0) {
        std::printf(" (%s extra lanes where recorded intervals overlap without nesting)",
                    with_commas(summary->overlap_lanes).c_str());
    }
    std::printf(".\nOpen it at https://ui.perfetto.dev (Open trace file).\n");
    return 0;
}

}  // namespace

void add_export_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<ExportArgs>();
    auto* cmd = app.add_subcommand("export", "Write a trace DB in another tool's format");
    cmd->add_option("--format", args->format,
                    "Output format (perfetto: Chrome trace-event JSON for ui.perfetto.dev)")
        ->required()
        ->check(CLI::IsMember({"perfetto"}));
    cmd->add_option("DB", args->db_path, "The trace DB to export")->required();
    cmd->add_option("OUT", args->out_path, "The file to write (must not exist)")->required();
    cmd->callback([args, &exit_code] { exit_code = run_export(*args); });
}

}  // namespace causeway::cli
