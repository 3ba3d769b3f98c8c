#include "fleet/push_tables.hpp"

#include "fleet/clickhouse_client.hpp"
#include "fleet/trace_tables.hpp"

namespace causeway::fleet {

std::string push_table() {
    return table_prefix() + "push";
}
std::string node_cause_table() {
    return table_prefix() + "node_cause";
}
std::string node_rank_table() {
    return table_prefix() + "node_rank";
}
std::string node_collective_table() {
    return table_prefix() + "node_collective";
}
std::string node_thread_table() {
    return table_prefix() + "node_thread";
}

std::string visible_pushes_sql(const std::string& job) {
    return "SELECT job, node, argMax(push_id, version_ns) AS push_id, "
           "argMax(attempt, version_ns) AS attempt, argMax(rank, version_ns) AS rank FROM " +
           push_table() + " WHERE job = " + quote(job) +
           " GROUP BY job, node HAVING argMax(complete, version_ns) = 1";
}

std::string visible_rows_condition(const std::string& job) {
    return "job = " + quote(job) +
           " AND (job, node, push_id, attempt) GLOBAL IN (SELECT job, node, push_id, attempt "
           "FROM (" +
           visible_pushes_sql(job) + "))";
}

}  // namespace causeway::fleet
