#include "cli/trace_input.hpp"

#include "cli/temp_folder.hpp"
#include "fleet/materialise.hpp"
#include "tracedb/reader.hpp"

namespace causeway::cli {
namespace {

Result<analysis::TraceModel> load_model(const TraceInputOptions& options) {
    if (options.clickhouse.empty()) {
        auto reader = tracedb::TraceReader::open(options.db);
        if (!reader) {
            return reader.error();
        }
        return analysis::load_trace(*reader);
    }
    if (options.job.empty() || options.node.empty()) {
        return Error{"--clickhouse needs --job and --node: the node of the job to analyse"};
    }
    auto client = fleet::ClickHouseClient::open(options.clickhouse, false);
    if (!client) {
        return client.error();
    }
    auto folder = TempFolder::create("the copy of node " + options.node);
    if (!folder) {
        return folder.error();
    }
    std::string copy = folder->file("node.db");
    if (auto copied = fleet::materialise_node(*client, options.job, options.node, copy); !copied) {
        return copied.error();
    }
    auto reader = tracedb::TraceReader::open(copy);
    if (!reader) {
        return reader.error();
    }
    return analysis::load_trace(*reader);
}

}  // namespace

void add_trace_input_options(CLI::App& command, TraceInputOptions& options) {
    auto* db = command.add_option("--db", options.db, "trace DB recorded by causeway-collector");
    auto* clickhouse = command.add_option(
        "--clickhouse", options.clickhouse,
        "instead of --db: a ClickHouse HTTP interface (http://HOST:PORT) that `causeway push` "
        "stored the node in");
    db->excludes(clickhouse);
    clickhouse->excludes(db);
    command.add_option("--job", options.job, "with --clickhouse: the job");
    command.add_option("--node", options.node, "with --clickhouse: the node of the job");
    command.add_option("--window", options.window,
                       "time window since the start of recording, A..B (e.g. 10s..20s, 2.5s..)");
    command.add_option("--pid", options.pid, "only this process (kernel pid)");
}

std::string trace_label(const TraceInputOptions& options) {
    if (options.clickhouse.empty()) {
        return options.db;
    }
    return "node " + options.node + " of job " + options.job + " in ClickHouse at " +
           options.clickhouse;
}

Result<TraceInput> load_trace_input(const TraceInputOptions& options) {
    if (options.db.empty() && options.clickhouse.empty()) {
        return Error{"give the trace: --db FILE, or --clickhouse URL --job J --node N"};
    }
    auto model = load_model(options);
    if (!model) {
        return model.error();
    }
    TraceInput input{std::move(model).value(), {}};
    input.filter.pid = options.pid;
    if (!options.window.empty()) {
        auto window = analysis::parse_window(options.window, input.model.end_ns());
        if (!window) {
            return Error{"--window: " + window.error().message};
        }
        input.filter.window = *window;
    }
    if (auto valid = analysis::validate_filter(input.model, input.filter); !valid) {
        return valid.error();
    }
    return input;
}

}  // namespace causeway::cli
