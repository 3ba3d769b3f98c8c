#pragma once
// The fleet view of a job: per node, how fast its GPU loop ran and what the node's diagnosis
// says it lost time to; the NCCL ranks of the job aligned across the nodes (rank_meetings.hpp);
// the straggler and its cause; the skew. The sums run in ClickHouse: this process reads one row
// per node, per node and cause, and per collective of each rank, never the calls themselves.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/model/container_identity.hpp"
#include "base/result.hpp"
#include "fleet/clickhouse_client.hpp"
#include "fleet/rank_meetings.hpp"

namespace causeway::fleet {

struct NodeCause {
    std::string cause;         // root-cause class of the node's chains (INPUT-BOUND, ...)
    std::int64_t lost_ns = 0;  // loop time those chains cost on the node (ns)
    // The actor of the costliest of those chains, and its container and pod where its cgroup
    // path names them.
    std::string actor_kind{};  // '' for a node without chains
    std::string actor{};
    std::optional<analysis::ContainerIdentity> container{};
    // What removing that chain's cause speeds the node's loop up by; absent when not predicted
    // (or pushed by a causeway that did not store it).
    std::optional<double> speedup{};
    bool device_twice_as_fast = false;  // the speed-up is for a device twice as fast (GPU-BOUND)
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
    // Its ranks' time in collectives waiting for the last rank to arrive (ns, summed over its
    // ranks and communicators).
    std::int64_t collective_wait_ns = 0;
    // Its clock against the reference node's, estimated from collectives (rank_meetings.hpp);
    // absent when it shares none with that node.
    std::optional<std::int64_t> clock_offset_ns{};
};

// Why a node is the straggler.
enum class StragglerBasis {
    kSlowestLoop,      // its GPU loop is the slowest (no collective says more)
    kOthersWaitForIt,  // its rank arrived last at the job's collectives, and the others waited
    kNeverArrived,     // its rank never issued a collective the others did (a hang)
    kLast = kNeverArrived,
};
const char* straggler_basis_name(StragglerBasis basis);

struct Straggler {
    std::string node;
    StragglerBasis basis = StragglerBasis::kSlowestLoop;
    std::int64_t rank = -1;  // its NCCL rank where a collective names it, else its pushed rank
    double loop_calls_per_s = 0;
    std::string cause;  // its largest cause (its verdict when it has no chain)
    std::int64_t cause_lost_ns = 0;
    double slower_than_median_pct = 0;  // how much lower its rate is than the median node's (%)
    std::string actor{};                // that cause's actor ('' without a chain)
    std::optional<analysis::ContainerIdentity> container{};  // the actor's, where known
    std::optional<double> cause_speedup{};  // removing that cause, on its node (NodeCause)
    bool device_twice_as_fast = false;
    std::optional<LateRank> late{};            // kOthersWaitForIt: how late, what it costs
    std::optional<AbsentRankOnNode> absent{};  // kNeverArrived: where it was last seen
};

struct FleetOverview {
    std::string job;
    std::vector<NodeLoop> nodes;  // in node name order
    // The job's NCCL communicators whose every rank was pushed, aligned across the nodes.
    std::vector<JobCommunicator> communicators;
    // The node whose clock the others' are set to (rank 0's); '' without communicators.
    std::string clock_reference;
    std::optional<Straggler> straggler;  // absent when no node has CUDA calls
    // Spread of the loop rate over the nodes: (fastest - slowest) / fastest (%).
    double skew_pct = 0;
};

Result<FleetOverview> fleet_overview(const ClickHouseClient& client, const std::string& job);

}  // namespace causeway::fleet
