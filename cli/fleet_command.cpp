// causeway fleet --clickhouse URL --job J: every node of a training job side by side, the
// straggler and its cause. The sums run in ClickHouse (fleet/fleet_overview.hpp).
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "cli/clickhouse_options.hpp"
#include "cli/commands.hpp"
#include "fleet/fleet_overview.hpp"
#include "report/fleet_json.hpp"
#include "report/fleet_text.hpp"

namespace causeway::cli {
namespace {

struct FleetArgs {
    ClickHouseOptions clickhouse;
    std::string job;
    bool json = false;
};

int run_fleet(const FleetArgs& args) {
    auto client = fleet::ClickHouseClient::open(args.clickhouse.url, false, args.clickhouse.limits);
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
        std::cout << report::json_text(report::to_json(*overview)) << "\n";
    } else {
        std::cout << report::render_fleet(*overview);
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
    add_clickhouse_options(*cmd, args->clickhouse);
    cmd->add_option("--job", args->job, "The job to compare the nodes of")->required();
    cmd->add_flag("--json", args->json, "print one JSON object instead of text");
    cmd->callback([args, &exit_code] { exit_code = run_fleet(*args); });
}

}  // namespace causeway::cli
