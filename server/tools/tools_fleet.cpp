// get_fleet_overview: every node of a job stored in ClickHouse, the straggler and its cause.
// Served when `causeway mcp --clickhouse URL` is given; the sums run in ClickHouse.
#include <fmt/format.h>

#include "fleet/fleet_overview.hpp"
#include "fleet/materialise.hpp"
#include "report/fleet_json.hpp"
#include "report/shapes/fleet.hpp"
#include "report/tool_answers.hpp"
#include "server/tools/tool_registry.hpp"
#include "server/tools/tools.hpp"

namespace causeway::server {
namespace {

struct FleetInput {
    std::optional<std::string> job{};
};

template <class V>
void describe(V& v, FleetInput& in) {
    v.field("job", in.job,
            {.description = "The training job stored in ClickHouse by `causeway push` (its "
                            "--job). Optional when the server stores one job; the error lists the "
                            "stored jobs.",
             .max_length = 200});
}

// The job named in the arguments, or the only stored one.
Result<std::string> pick_job(const fleet::ClickHouseClient& client, const FleetInput& in) {
    if (in.job) {
        return *in.job;
    }
    auto jobs = fleet::stored_jobs(client);
    if (!jobs) {
        return jobs.error();
    }
    if (jobs->size() == 1) {
        return jobs->front();
    }
    return Error{jobs->empty() ? std::string("ClickHouse stores no complete push yet: push "
                                             "recordings with `causeway push` first")
                               : fmt::format("several jobs are stored; pass `job`, one of: {}",
                                             fmt::join(*jobs, ", "))};
}

}  // namespace

void add_fleet_overview_tool(ToolRegistry& tools, const std::string& clickhouse_url) {
    tools.add_tool<FleetInput, fleet::FleetOverview>(
        {.name = "get_fleet_overview",
         .title = "Fleet overview of a training job",
         .description =
             "Compares every node (host or rank) of a distributed training job stored in "
             "ClickHouse: the GPU loop's CUDA calls per second on each node, the time each node "
             "lost by cause (INPUT-BOUND, CPU-CONTENDED, ...) with the cause's actor and "
             "predicted speed-up, the job's NCCL ranks aligned across the nodes by their "
             "collectives (each node's clock set from when the ranks left them; each node's wait "
             "for the other ranks), the straggler with its cause, and the skew between nodes. "
             "The straggler is a rank that never issued a collective the others entered (basis "
             "never_arrived: its last call and Python line), else the rank the others waited for "
             "(others_wait_for_it: how late, and the job's speed-up were it on time), else the "
             "slowest loop. Then read the straggler's own trace with get_causal_chains (trace "
             "'<job>.<node>')."},
        [clickhouse_url](const FleetInput& in, const ToolRequest&) -> Result<ToolAnswer> {
            auto client = fleet::ClickHouseClient::open(clickhouse_url, false);
            if (!client) {
                return client.error();
            }
            auto job = pick_job(*client, in);
            if (!job) {
                return job.error();
            }
            auto overview = fleet::fleet_overview(*client, *job);
            if (!overview) {
                return overview.error();
            }
            return ToolAnswer{report::to_json(*overview), report::to_text(*overview)};
        });
}

}  // namespace causeway::server
