// causeway push --clickhouse URL --job JOB DB: stores a finished recording in ClickHouse as one
// node of a job, for `causeway fleet` and `causeway explain --clickhouse`.
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "cli/clickhouse_options.hpp"
#include "cli/commands.hpp"
#include "fleet/push.hpp"
#include "interop/import_limits.hpp"
#include "report/chain_text.hpp"
#include "report/verdict_text.hpp"

namespace causeway::cli {
namespace {

struct PushArgs {
    ClickHouseOptions clickhouse;
    std::string job;
    std::string node;
    std::int64_t rank = -1;
    std::string cluster;
    std::size_t batch_rows = fleet::PushOptions{}.batch_rows;
    bool create_tables_only = false;
    std::string compression = "auto";
    std::string db_path;
};

// --compression: as named, or with auto what the server reads best, except on this machine (no
// network to save, and the server needs the CPU).
Result<fleet::BodyEncoding> chosen_encoding(const fleet::ClickHouseClient& client,
                                            const std::string& compression) {
    if (compression != "auto") {
        return fleet::encoding_named(compression).value();
    }
    return client.on_loopback() ? fleet::BodyEncoding::kIdentity : client.readable_encoding();
}

// CAUSEWAY_PUSH_STOP_AFTER_BATCHES=N stops the process (SIGSTOP) once N batches are stored: the
// tests kill the server at that known point, then let the push go on into the dead server.
std::function<void(std::uint64_t)> stop_hook_from_environment() {
    const char* value = std::getenv("CAUSEWAY_PUSH_STOP_AFTER_BATCHES");
    if (value == nullptr) {
        return {};
    }
    std::uint64_t stop_after = std::strtoull(value, nullptr, 10);
    return [stop_after](std::uint64_t batches_sent) {
        if (batches_sent == stop_after) {
            std::raise(SIGSTOP);
        }
    };
}

int run_push(const PushArgs& args) {
    auto client = fleet::ClickHouseClient::open(args.clickhouse.url, !args.cluster.empty(),
                                                args.clickhouse.limits);
    if (!client) {
        std::fprintf(stderr, "causeway push: %s\n", client.error().message.c_str());
        return 2;
    }
    if (auto created = fleet::create_tables(*client, args.cluster, args.create_tables_only);
        !created) {
        std::fprintf(stderr, "causeway push: cannot create the tables: %s\n",
                     created.error().message.c_str());
        return 1;
    }
    if (args.create_tables_only) {
        std::printf("Tables of this schema version exist on %s.\n", client->url().c_str());
        return 0;
    }
    if (args.db_path.empty() || args.job.empty()) {
        std::fprintf(stderr,
                     "causeway push: DB and --job are required (unless --create-tables-only)\n");
        return 2;
    }
    auto encoding = chosen_encoding(*client, args.compression);
    if (!encoding) {
        std::fprintf(stderr, "causeway push: %s\n", encoding.error().message.c_str());
        return 1;
    }
    client->compress_inserts(*encoding);
    fleet::PushOptions options{.job = args.job,
                               .node = args.node,
                               .rank = args.rank,
                               .cluster = args.cluster,
                               .batch_rows = args.batch_rows,
                               .after_batch = stop_hook_from_environment(),
                               .words = {.root_cause = report::root_cause_text,
                                         .verdict_summary = report::verdict_summary}};
    auto summary = fleet::push_trace(*client, args.db_path, options);
    if (!summary) {
        std::fprintf(stderr, "causeway push: %s\n", summary.error().message.c_str());
        return 1;
    }
    if (summary->already_pushed) {
        std::printf("%s is already stored as node %s of job %s (push %s): nothing sent.\n",
                    args.db_path.c_str(), summary->node.c_str(), args.job.c_str(),
                    summary->push_id.c_str());
        return 0;
    }
    using interop::with_commas;
    std::printf(
        "Pushed %s as node %s of job %s (push %s): %s rows, %s CUDA calls, %s bytes (%s on the "
        "wire, compression %s).\n",
        args.db_path.c_str(), summary->node.c_str(), args.job.c_str(), summary->push_id.c_str(),
        with_commas(summary->rows).c_str(), with_commas(summary->cuda_calls).c_str(),
        with_commas(summary->bytes_sent).c_str(), with_commas(summary->wire_bytes).c_str(),
        fleet::encoding_name(*encoding));
    std::printf("Next: causeway fleet --clickhouse %s --job %s\n", args.clickhouse.url.c_str(),
                args.job.c_str());
    return 0;
}

}  // namespace

void add_push_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<PushArgs>();
    auto* cmd = app.add_subcommand(
        "push",
        "Store a finished trace DB in ClickHouse as one node of a job (idempotent; credentials "
        "from CLICKHOUSE_USER and CLICKHOUSE_PASSWORD)");
    add_clickhouse_options(*cmd, args->clickhouse);
    cmd->add_option("--job", args->job, "The training job this recording belongs to");
    cmd->add_option("--node", args->node, "Node name within the job (default: the recorded host)");
    cmd->add_option("--rank", args->rank, "The node's rank in the job");
    cmd->add_option("--cluster", args->cluster,
                    "Write through Distributed tables over this cluster of the server's "
                    "remote_servers (the shards need the local tables: --create-tables-only)");
    cmd->add_option("--batch-rows", args->batch_rows, "Rows per INSERT request")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--compression", args->compression,
                    "How the rows travel: auto (what the server reads best, zstd or gzip; none "
                    "when it is on this machine), zstd, gzip or none")
        ->check(CLI::IsMember({"auto", "zstd", "gzip", "none"}));
    cmd->add_flag("--create-tables-only", args->create_tables_only,
                  "Only create the MergeTree tables on this server (run it on every shard)");
    cmd->add_option("DB", args->db_path, "The finished trace DB to push");
    cmd->callback([args, &exit_code] { exit_code = run_push(*args); });
}

}  // namespace causeway::cli
