#pragma once
// Rebuilds one node's stored recording as a SQLite trace DB, so that every analysis the project
// has runs on it unchanged: `explain --clickhouse` answers exactly what `explain --db` answers on
// the file that was pushed, because it is the same analysis over the same rows in the same order.
// The rows come from ClickHouse one node at a time, a page of rows per request.

#include <string>
#include <vector>

#include "base/result.hpp"
#include "fleet/clickhouse_client.hpp"

namespace causeway::fleet {

// The jobs stored on the server (with at least one complete push), in name order.
Result<std::vector<std::string>> stored_jobs(const ClickHouseClient& client);

// The nodes of `job` whose push is complete, in name order.
Result<std::vector<std::string>> stored_nodes(const ClickHouseClient& client,
                                              const std::string& job);

// Writes node `node` of `job` to a new trace DB at `out_path` (which must not exist). Fails,
// naming the stored nodes, when the node has no complete push.
Status materialise_node(const ClickHouseClient& client, const std::string& job,
                        const std::string& node, const std::string& out_path);

}  // namespace causeway::fleet
