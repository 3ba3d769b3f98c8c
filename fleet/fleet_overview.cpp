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

// The node named `name` (NodeLoop* or const NodeLoop*, as `nodes`); nullptr when none is.
template <class Nodes>
auto* find_node(Nodes& nodes, const std::string& name) {
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

// Per node: the busiest thread's call count and span, and all calls, from `threads`: a query of
// node, thread_id, calls, span_ns rows. Two GROUP BYs in the server.
Status read_thread_loops(const ClickHouseClient& client, const std::string& job,
                         const std::string& threads, std::vector<NodeLoop>& nodes) {
    std::string sql =
        "SELECT node, toInt64(max(calls)), toInt64(argMax(span_ns, calls)), toInt64(sum(calls)) "
        "FROM (" +
        threads + ") GROUP BY node";
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

// The loops from the per-thread summaries each push stores (push_tables.hpp: node_thread), never
// from the calls; a node pushed by a causeway that stored none is read from its calls.
Status read_loops(const ClickHouseClient& client, const std::string& job,
                  std::vector<NodeLoop>& nodes) {
    if (auto read =
            read_thread_loops(client, job,
                              "SELECT node, thread_id, calls, last_end_ns - first_ts_ns "
                              "AS span_ns FROM " +
                                  node_thread_table() + " WHERE " + visible_rows_condition(job),
                              nodes);
        !read) {
        return read;
    }
    std::string unsummarised;
    for (const NodeLoop& node : nodes) {
        if (node.all_calls == 0) {
            unsummarised += (unsummarised.empty() ? "" : ", ") + quote(node.node);
        }
    }
    if (unsummarised.empty()) {
        return Ok{};
    }
    return read_thread_loops(client, job,
                             "SELECT node, thread_id, count() AS calls, max(ts_ns + dur_ns) - "
                             "min(ts_ns) AS span_ns FROM " +
                                 clickhouse_table("cuda_call") + " WHERE " +
                                 visible_rows_condition(job) + " AND node IN (" + unsummarised +
                                 ") GROUP BY node, thread_id",
                             nodes);
}

Status read_causes(const ClickHouseClient& client, const std::string& job,
                   std::vector<NodeLoop>& nodes) {
    std::string sql =
        "SELECT node, cause, toInt64(sum(lost_ns)) AS lost, any(verdict), "
        "argMax(actor_kind, lost_ns), argMax(actor, lost_ns), argMax(container_runtime, lost_ns), "
        "argMax(container_id, lost_ns), argMax(pod_uid, lost_ns), argMax(pod_qos, lost_ns), "
        "argMax(speedup, lost_ns), argMax(device_twice_as_fast, lost_ns) FROM " +
        node_cause_table() + " WHERE " + visible_rows_condition(job) +
        " GROUP BY node, cause ORDER BY node, lost DESC, cause";
    return for_each_row(
        client, sql, "the causes of job " + job, [&](RowBinaryReader& in) -> Status {
            std::string name;
            std::string verdict;
            NodeCause cause;
            analysis::ContainerIdentity container;
            double speedup = 0;
            std::uint8_t device_twice_as_fast = 0;
            for (auto s :
                 {take(in.string(), name), take(in.string(), cause.cause),
                  take(in.int64(), cause.lost_ns), take(in.string(), verdict),
                  take(in.string(), cause.actor_kind), take(in.string(), cause.actor),
                  take(in.string(), container.runtime), take(in.string(), container.container_id),
                  take(in.string(), container.pod_uid), take(in.string(), container.qos_class),
                  take(in.float64(), speedup), take(in.uint8(), device_twice_as_fast)}) {
                if (!s) {
                    return s;
                }
            }
            if (!container.container_id.empty() || !container.pod_uid.empty()) {
                cause.container = std::move(container);
            }
            if (speedup > 0) {
                cause.speedup = speedup;
                cause.device_twice_as_fast = device_twice_as_fast != 0;
            }
            if (NodeLoop* node = find_node(nodes, name)) {
                node->verdict = verdict;
                node->causes.push_back(std::move(cause));
            }
            return Ok{};
        });
}

// The communicator and rank a row of the node_rank or node_collective table is about.
Status read_rank_key(RowBinaryReader& in, PushedRank& rank) {
    std::int64_t order = 0;
    for (auto s : {take(in.string(), rank.node), take(in.int64(), rank.communicator.first),
                   take(in.int64(), order), take(in.int64(), rank.rank)}) {
        if (!s) {
            return s;
        }
    }
    rank.communicator.second = static_cast<int>(order);
    return Ok{};
}

// The NCCL ranks of the visible pushes, with their collectives in order.
Result<std::vector<PushedRank>> read_pushed_ranks(const ClickHouseClient& client,
                                                  const std::string& job) {
    const std::string key = "node, comm_size, comm_order, rank";
    std::vector<PushedRank> ranks;
    auto read = for_each_row(
        client,
        "SELECT " + key + ", pid, last_call, stuck_at FROM " + node_rank_table() + " WHERE " +
            visible_rows_condition(job) + " ORDER BY " + key,
        "the NCCL ranks of job " + job, [&](RowBinaryReader& in) -> Status {
            PushedRank rank;
            for (auto s : {read_rank_key(in, rank), take(in.int64(), rank.pid),
                           take(in.string(), rank.last_call), take(in.string(), rank.stuck_at)}) {
                if (!s) {
                    return s;
                }
            }
            ranks.push_back(std::move(rank));
            return Ok{};
        });
    if (!read) {
        return read.error();
    }
    std::size_t next = 0;  // the rows come in the ranks' order, each rank's in its collectives'
    read = for_each_row(
        client,
        "SELECT " + key + ", arrival_ns, left_ns FROM " + node_collective_table() + " WHERE " +
            visible_rows_condition(job) + " ORDER BY " + key + ", number",
        "the collectives of job " + job, [&](RowBinaryReader& in) -> Status {
            PushedRank row;
            std::int64_t arrival = 0;
            std::int64_t left = 0;
            for (auto s :
                 {read_rank_key(in, row), take(in.int64(), arrival), take(in.int64(), left)}) {
                if (!s) {
                    return s;
                }
            }
            auto same = [&](const PushedRank& r) {
                return r.node == row.node && r.communicator == row.communicator &&
                       r.rank == row.rank;
            };
            while (next < ranks.size() && !same(ranks[next])) {
                ++next;
            }
            if (next == ranks.size()) {
                return Error{"collectives of rank " + std::to_string(row.rank) + " on node " +
                             row.node + " of job " + job + " have no rank row"};
            }
            ranks[next].arrival_ns.push_back(arrival);
            ranks[next].left_ns.push_back(left);
            return Ok{};
        });
    if (!read) {
        return read.error();
    }
    return ranks;
}

// Aligns the job's ranks across its nodes; each node's wait in collectives and its clock.
Status read_communicators(const ClickHouseClient& client, FleetOverview& overview) {
    auto pushed = read_pushed_ranks(client, overview.job);
    if (!pushed) {
        return pushed.error();
    }
    RankMeetings meetings = meet_ranks(*pushed);
    for (const NodeClock& clock : meetings.clocks) {
        if (NodeLoop* node = find_node(overview.nodes, clock.node);
            node && (clock.reference || clock.samples > 0)) {
            node->clock_offset_ns = clock.offset_ns;
        }
        if (clock.reference) {
            overview.clock_reference = clock.node;
        }
    }
    for (const JobCommunicator& communicator : meetings.communicators) {
        for (const RankOnNode& rank : communicator.ranks) {
            if (NodeLoop* node = find_node(overview.nodes, rank.node)) {
                node->collective_wait_ns += rank.waited_ns;
            }
        }
    }
    overview.communicators = std::move(meetings.communicators);
    return Ok{};
}

double median_rate(std::vector<double> rates) {
    std::sort(rates.begin(), rates.end());
    std::size_t mid = rates.size() / 2;
    return rates.size() % 2 == 1 ? rates[mid] : (rates[mid - 1] + rates[mid]) / 2;
}

// The node the job waits for: a rank that never arrived at a collective, else the rank the
// others waited for in collectives, else the node with the slowest GPU loop.
void choose_straggler(const FleetOverview& overview, const NodeLoop*& node, Straggler& straggler) {
    for (const JobCommunicator& communicator : overview.communicators) {
        if (!communicator.absent.empty()) {
            straggler.basis = StragglerBasis::kNeverArrived;
            straggler.absent = communicator.absent.front();
            straggler.rank = straggler.absent->rank;
            if (const NodeLoop* found = find_node(overview.nodes, straggler.absent->node)) {
                node = found;
            }
            return;
        }
    }
    for (const JobCommunicator& communicator : overview.communicators) {
        if (communicator.late_rank) {
            straggler.basis = StragglerBasis::kOthersWaitForIt;
            straggler.late = communicator.late_rank;
            straggler.rank = straggler.late->rank;
            if (const NodeLoop* found = find_node(overview.nodes, straggler.late->node)) {
                node = found;
            }
            return;
        }
    }
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
    overview.skew_pct = fastest->loop_calls_per_s > 0
                            ? (fastest->loop_calls_per_s - slowest->loop_calls_per_s) /
                                  fastest->loop_calls_per_s * 100
                            : 0;
    const NodeLoop* node = slowest;
    Straggler straggler;
    straggler.rank = slowest->rank;
    choose_straggler(overview, node, straggler);
    straggler.node = node->node;
    straggler.loop_calls_per_s = node->loop_calls_per_s;
    straggler.cause = node->verdict;
    if (!node->causes.empty() && node->causes.front().lost_ns > 0) {
        const NodeCause& top = node->causes.front();
        straggler.cause = top.cause;
        straggler.cause_lost_ns = top.lost_ns;
        straggler.actor = top.actor;
        straggler.container = top.container;
        straggler.cause_speedup = top.speedup;
        straggler.device_twice_as_fast = top.device_twice_as_fast;
    }
    const double median = median_rate(rates);
    straggler.slower_than_median_pct =
        median > 0 ? (median - node->loop_calls_per_s) / median * 100 : 0;
    overview.straggler = std::move(straggler);
}

}  // namespace

const char* straggler_basis_name(StragglerBasis basis) {
    switch (basis) {
        case StragglerBasis::kSlowestLoop:
            return "slowest_loop";
        case StragglerBasis::kOthersWaitForIt:
            return "others_wait_for_it";
        case StragglerBasis::kNeverArrived:
            return "never_arrived";
    }
    return "slowest_loop";
}

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
    if (auto aligned = read_communicators(client, overview); !aligned) {
        return aligned.error();
    }
    find_straggler(overview);
    return overview;
}

}  // namespace causeway::fleet
