#pragma once
// The fleet view of a job: per node, how fast its GPU loop ran and what the node's diagnosis
// says it lost time to; the straggler (the slowest node) and its cause; the skew. The sums run
// in ClickHouse: this process reads one row per node (and one per node and cause), never the
// calls themselves.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/model/container_identity.hpp"
#include "fleet/clickhouse_client.hpp"
#include "tracedb/result.hpp"

namespace causeway::fleet {

struct NodeCause {
    std::string cause;         // root-cause class of the node's chains (INPUT-BOUND, ...)
    std::int64_t lost_ns = 0;  // loop time those chains cost on the node (ns)
    // The actor of the costliest of those chains, and its container and pod where its cgroup
    // path names them.
    std::string actor_kind{};  // '' for a node without chains
    std::string actor{};
    std::optional<analysis::ContainerIdentity> container{};
};

struct NodeLoop {
    std::string node;
    std::int64_t rank = -1;         // -1: not given at push
    std::int64_t loop_calls = 0;    // CUDA calls of the node's GPU loop thread (the busiest one)
    std::int64_t loop_span_ns = 0;  // first call to the end of the last one on that thread (ns)
    double loop_calls_per_s = 0;    // loop_calls over loop_span_ns
    std::int64_t all_calls = 0;     // CUDA calls of every thread of the node
    std::string verdict;            // the node's verdict
    std::vector<NodeCause> causes;  // largest loss first
};

struct Straggler {
    std::string node;
    std::int64_t rank = -1;
    double loop_calls_per_s = 0;
    std::string cause;  // its largest cause (its verdict when it has no chain)
    std::int64_t cause_lost_ns = 0;
    double slower_than_median_pct = 0;  // how much lower its rate is than the median node's (%)
    std::string actor{};                // that cause's actor ('' without a chain)
    std::optional<analysis::ContainerIdentity> container{};  // the actor's, where known
};

struct FleetOverview {
    std::string job;
    std::vector<NodeLoop> nodes;         // in node name order
    std::optional<Straggler> straggler;  // absent when no node has CUDA calls
    // Spread of the loop rate over the nodes: (fastest - slowest) / fastest (%).
    double skew_pct = 0;
};

Result<FleetOverview> fleet_overview(const ClickHouseClient& client, const std::string& job);

}  // namespace causeway::fleet
