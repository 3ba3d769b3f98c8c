#include "cli/clickhouse_options.hpp"

namespace causeway::cli {

void add_clickhouse_options(CLI::App& command, ClickHouseOptions& options) {
    command.add_option("--clickhouse", options.url, "ClickHouse HTTP interface, http://HOST:PORT")
        ->required();
    command
        .add_option_function<int>(
            "--clickhouse-timeout",
            [&options](int seconds) { options.limits.deadline = std::chrono::seconds(seconds); },
            "Seconds one request to ClickHouse may take, answer included (default 300): a "
            "server that stalls or trickles is cut off then")
        ->check(CLI::Range(1, 86400));
}

}  // namespace causeway::cli
