// causeway fleet --clickhouse URL --job J: every node of a training job side by side, the
// straggler and its cause. The sums run in ClickHouse (fleet/fleet_overview.hpp).
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "analysis/human_units.hpp"
#include "cli/commands.hpp"
#include "fleet/fleet_overview.hpp"
#include "report/fleet_json.hpp"
#include "report/text_table.hpp"

namespace causeway::cli {
namespace {

struct FleetArgs {
    std::string clickhouse;
    std::string job;
    bool json = false;
};

std::string render_fleet(const fleet::FleetOverview& overview) {
    using Align = report::TextTable::Align;
    report::TextTable table(
        {"NODE", "RANK", "LOOP CALLS/S", "LOOP CALLS", "VERDICT", "TIME LOST BY CAUSE"},
        {Align::kLeft, Align::kRight, Align::kRight, Align::kRight, Align::kLeft, Align::kLeft});
    for (const auto& node : overview.nodes) {
        std::string causes;
        for (const auto& cause : node.causes) {
            if (cause.lost_ns > 0) {
                causes += (causes.empty() ? "" : ", ") + cause.cause + " " +
                          analysis::format_duration(cause.lost_ns);
            }
        }
        table.add_row({node.node, node.rank < 0 ? "-" : std::to_string(node.rank),
                       analysis::format_decimal(node.loop_calls_per_s, 1),
                       std::to_string(node.loop_calls), node.verdict,
                       causes.empty() ? "-" : causes});
    }
    std::string text = "Job " + overview.job + ": " + std::to_string(overview.nodes.size()) +
                       " nodes\n" + table.render();
    if (overview.straggler) {
        const auto& s = *overview.straggler;
        text += "Straggler: " + s.node +
                (s.rank < 0 ? "" : " (rank " + std::to_string(s.rank) + ")") + ", GPU loop at " +
                analysis::format_decimal(s.loop_calls_per_s, 1) + " calls/s, " +
                analysis::format_decimal(s.slower_than_median_pct, 1) +
                "% below the median node; cause: " + s.cause +
                (s.cause_lost_ns > 0 ? " (" + analysis::format_duration(s.cause_lost_ns) + " lost)"
                                     : "") +
                "\n";
        text += "Skew: the slowest node's loop runs " +
                analysis::format_decimal(overview.skew_pct, 1) + "% slower than the fastest's.\n";
        text += "Next: causeway explain --clickhouse URL --job " + overview.job + " --node " +
                s.node + "\n";
    }
    return text;
}

int run_fleet(const FleetArgs& args) {
    auto client = fleet::ClickHouseClient::open(args.clickhouse, false);
    if (!client) {
        std::fprintf(stderr, "causeway fleet: %s\n", client.error().message.c_str());
        return 2;
    }
    auto overview = fleet::fleet_overview(*client, args.job);
    if (!overview) {
        std::fprintf(stderr, "causeway fleet: %s\n", overview.error().message.c_str());
        return 1;
    }
    if (args.json) {
        std::cout << report::to_json(*overview).dump(2) << "\n";
    } else {
        std::cout << render_fleet(*overview);
    }
    return 0;
}

}  // namespace

void add_fleet_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<FleetArgs>();
    auto* cmd = app.add_subcommand(
        "fleet",
        "Every node of a job stored in ClickHouse: loop rate, time lost by cause, the "
        "straggler and the skew");
    cmd->add_option("--clickhouse", args->clickhouse, "ClickHouse HTTP interface, http://HOST:PORT")
        ->required();
    cmd->add_option("--job", args->job, "The job to compare the nodes of")->required();
    cmd->add_flag("--json", args->json, "print one JSON object instead of text");
    cmd->callback([args, &exit_code] { exit_code = run_fleet(*args); });
}

}  // namespace causeway::cli
