#pragma once
// The options every command that talks to ClickHouse takes: the server's HTTP interface and how
// long one request to it may take.

#include <CLI/CLI.hpp>
#include <string>

#include "fleet/clickhouse_client.hpp"

namespace causeway::cli {

struct ClickHouseOptions {
    std::string url;
    fleet::ClickHouseLimits limits;
};

// Adds --clickhouse URL (required) and --clickhouse-timeout SECONDS to `command`.
void add_clickhouse_options(CLI::App& command, ClickHouseOptions& options);

}  // namespace causeway::cli
