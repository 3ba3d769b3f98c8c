#include "fleet/fleet_overview.hpp"

#include <algorithm>

#include "fleet/push_tables.hpp"
#include "fleet/row_binary.hpp"
#include "fleet/trace_tables.hpp"

namespace causeway::fleet {
namespace {

constexpr double kNsPerS = 1e9;

// Runs a RowBinary SELECT and hands each row to `read_row` until the body ends.
template <class ReadRow>
Status for_each_row(const ClickHouseClient& client, const std::string& sql, const std::string& what,
                    ReadRow read_row) {
    auto body = client.query(sql + " FORMAT RowBinary");
    if (!body) {
        return body.error();
    }
    RowBinaryReader in(*body, what);
    while (!in.at_end()) {
        if (auto row = read_row(in); !row) {
            return row;
        }
    }
    return Ok{};
}

template <class T>
Status take(Result<T> value, T& out) {
    if (!value) {
        return value.error();
    }
    out = std::move(*value);
    return Ok{};
}

NodeLoop* find_node(std::vector<NodeLoop>& nodes, const std::string& name) {
    auto it =
        std::find_if(nodes.begin(), nodes.end(), [&](const NodeLoop& n) { return n.node == name; });
    return it == nodes.end() ? nullptr : &*it;
}

Status read_nodes(const ClickHouseClient& client, const std::string& job,
                  std::vector<NodeLoop>& nodes) {
    return for_each_row(client,
                        "SELECT node, rank FROM (" + visible_pushes_sql(job) + ") ORDER BY node",
                        "the nodes of job " + job, [&](RowBinaryReader& in) -> Status {
                            NodeLoop node;
                            if (auto s = take(in.string(), node.node); !s) {
                                return s;
                            }
                            if (auto s = take(in.int64(), node.rank); !s) {
                                return s;
                            }
                            nodes.push_back(std::move(node));
                            return Ok{};
                        });
}

// Per node: the busiest thread's call count and span, and all calls. Two GROUP BYs in the
// server over the visible calls of the job.
Status read_loops(const ClickHouseClient& client, const std::string& job,
                  std::vector<NodeLoop>& nodes) {
    std::string sql =
        "SELECT node, toInt64(max(calls)), toInt64(argMax(span_ns, calls)), toInt64(sum(calls)) "
        "FROM (SELECT node, thread_id, count() AS calls, max(ts_ns + dur_ns) - min(ts_ns) AS "
        "span_ns FROM " +
        clickhouse_table("cuda_call") + " WHERE " + visible_rows_condition(job) +
        " GROUP BY node, thread_id) GROUP BY node";
    return for_each_row(
        client, sql, "the GPU loops of job " + job, [&](RowBinaryReader& in) -> Status {
            std::string name;
            NodeLoop loop;
            for (auto s : {take(in.string(), name), take(in.int64(), loop.loop_calls),
                           take(in.int64(), loop.loop_span_ns), take(in.int64(), loop.all_calls)}) {
                if (!s) {
                    return s;
                }
            }
            if (NodeLoop* node = find_node(nodes, name)) {
                node->loop_calls = loop.loop_calls;
                node->loop_span_ns = loop.loop_span_ns;
                node->all_calls = loop.all_calls;
                node->loop_calls_per_s = loop.loop_span_ns > 0
                                             ? static_cast<double>(loop.loop_calls) * kNsPerS /
                                                   static_cast<double>(loop.loop_span_ns)
                                             : 0;
            }
            return Ok{};
        });
}

Status read_causes(const ClickHouseClient& client, const std::string& job,
                   std::vector<NodeLoop>& nodes) {
    std::string sql =
        "SELECT node, cause, toInt64(sum(lost_ns)) AS lost, any(verdict), "
        "argMax(actor_kind, lost_ns), argMax(actor, lost_ns), argMax(container_runtime, lost_ns), "
        "argMax(container_id, lost_ns), argMax(pod_uid, lost_ns), argMax(pod_qos, lost_ns) FROM " +
        node_cause_table() + " WHERE " + visible_rows_condition(job) +
        " GROUP BY node, cause ORDER BY node, lost DESC, cause";
    return for_each_row(
        client, sql, "the causes of job " + job, [&](RowBinaryReader& in) -> Status {
            std::string name;
            std::string verdict;
            NodeCause cause;
            analysis::ContainerIdentity container;
            for (auto s :
                 {take(in.string(), name), take(in.string(), cause.cause),
                  take(in.int64(), cause.lost_ns), take(in.string(), verdict),
                  take(in.string(), cause.actor_kind), take(in.string(), cause.actor),
                  take(in.string(), container.runtime), take(in.string(), container.container_id),
                  take(in.string(), container.pod_uid), take(in.string(), container.qos_class)}) {
                if (!s) {
                    return s;
                }
            }
            if (!container.container_id.empty() || !container.pod_uid.empty()) {
                cause.container = std::move(container);
            }
            if (NodeLoop* node = find_node(nodes, name)) {
                node->verdict = verdict;
                node->causes.push_back(std::move(cause));
            }
            return Ok{};
        });
}

double median_rate(std::vector<double> rates) {
    std::sort(rates.begin(), rates.end());
    std::size_t mid = rates.size() / 2;
    return rates.size() % 2 == 1 ? rates[mid] : (rates[mid - 1] + rates[mid]) / 2;
}

void find_straggler(FleetOverview& overview) {
    std::vector<double> rates;
    const NodeLoop* slowest = nullptr;
    const NodeLoop* fastest = nullptr;
    for (const auto& node : overview.nodes) {
        if (node.loop_calls == 0) {
            continue;
        }
        rates.push_back(node.loop_calls_per_s);
        if (slowest == nullptr || node.loop_calls_per_s < slowest->loop_calls_per_s) {
            slowest = &node;
        }
        if (fastest == nullptr || node.loop_calls_per_s > fastest->loop_calls_per_s) {
            fastest = &node;
        }
    }
    if (slowest == nullptr) {
        return;
    }
    Straggler straggler{.node = slowest->node,
                        .rank = slowest->rank,
                        .loop_calls_per_s = slowest->loop_calls_per_s,
                        .cause = slowest->verdict};
    if (!slowest->causes.empty() && slowest->causes.front().lost_ns > 0) {
        const NodeCause& top = slowest->causes.front();
        straggler.cause = top.cause;
        straggler.cause_lost_ns = top.lost_ns;
        straggler.actor = top.actor;
        straggler.container = top.container;
    }
    double median = median_rate(rates);
    straggler.slower_than_median_pct =
        median > 0 ? (median - slowest->loop_calls_per_s) / median * 100 : 0;
    overview.skew_pct = fastest->loop_calls_per_s > 0
                            ? (fastest->loop_calls_per_s - slowest->loop_calls_per_s) /
                                  fastest->loop_calls_per_s * 100
                            : 0;
    overview.straggler = std::move(straggler);
}

}  // namespace

Result<FleetOverview> fleet_overview(const ClickHouseClient& client, const std::string& job) {
    FleetOverview overview;
    overview.job = job;
    for (auto step : {read_nodes, read_loops, read_causes}) {
        if (auto done = step(client, job, overview.nodes); !done) {
            return done.error();
        }
    }
    if (overview.nodes.empty()) {
        return Error{"job " + job + " has no complete push on " + client.url() +
                     " (push its nodes with `causeway push --job " + job + "`)"};
    }
    find_straggler(overview);
    return overview;
}

}  // namespace causeway::fleet
