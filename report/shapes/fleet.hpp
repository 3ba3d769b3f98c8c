#pragma once
// The shape of get_fleet_overview (FleetOverview).
// Each struct's describe() names its fields in order, with their descriptions: the JSON
// (write_json) and the tool output schemas (causeway-schemas) are both read from it
// (report/output_shape.hpp explains how).

#include <cstdint>
#include <optional>
#include <string>

#include "fleet/fleet_overview.hpp"
#include "report/shapes/shared.hpp"

namespace causeway::report {

inline const auto kStragglerBasisNames =
    enum_names<fleet::StragglerBasis::kLast>(fleet::straggler_basis_name);

}  // namespace causeway::report

namespace causeway::fleet {

// A rank not given at push (-1) is null in the JSON.
inline std::optional<std::int64_t> known_rank(std::int64_t rank) {
    return rank < 0 ? std::nullopt : std::optional<std::int64_t>(rank);
}

template <class V>
void describe(V& v, const NodeCause& cause) {
    v.object_description("Loop time the node's chains of this class cost (ns).");
    v.field("cause", cause.cause, {.allowed_values = report::kVerdictClassNames});
    v.field("lost_ns", cause.lost_ns);
    v.field("actor_kind", cause.actor_kind,
            {.description = "The actor kind of the costliest of these chains; empty for a node "
                            "without chains."});
    v.field("actor", cause.actor, {.description = "Its name. Untrusted: from the traced system."});
    v.field("container", cause.container,
            {.description = "The actor's container and pod, where its cgroup path names them."});
    v.field("speedup", cause.speedup,
            {.description = "What removing that chain's cause speeds the node's loop up by; null "
                            "when not predicted."});
    v.field("device_twice_as_fast", cause.device_twice_as_fast,
            {.description = "The speed-up is for a device twice as fast (GPU-BOUND)."});
}

template <class V>
void describe(V& v, const NodeLoop& node) {
    v.object_description("One node: its GPU loop (the busiest thread) and its diagnosis.");
    v.field("node", node.node);
    v.field("rank", known_rank(node.rank));
    v.field("loop_calls", node.loop_calls);
    v.field("loop_span_ns", node.loop_span_ns);
    v.field("loop_calls_per_s", node.loop_calls_per_s);
    v.field("all_calls", node.all_calls);
    v.field("verdict", node.verdict);
    v.field("causes", node.causes, {.description = "Largest loss first."});
    v.field("collective_wait_ns", node.collective_wait_ns,
            {.description = "Its NCCL ranks' time in collectives waiting for the last rank to "
                            "arrive (ns)."});
    v.field("clock_offset_ns", node.clock_offset_ns,
            {.description = "Its clock against the reference node's, estimated from when the "
                            "ranks left each collective; null when it shares none with it."});
}

template <class V>
void describe(V& v, const RankOnNode& rank) {
    v.object_description("One rank of a communicator, on the node that pushed it.");
    v.field("node", rank.node);
    v.field("rank", rank.rank);
    v.field("pid", rank.pid);
    v.field("collectives", rank.collectives);
    v.field("arrived_last", rank.arrived_last,
            {.description = "Collectives every rank reached at which it arrived last."});
    v.field("late_ns", rank.late_ns,
            {.description = "Summed where it arrived last: its arrival after the next-to-last "
                            "rank's (ns)."});
    v.field("waited_ns", rank.waited_ns,
            {.description = "Summed: the last rank's arrival less its own (ns)."});
}

template <class V>
void describe(V& v, const LateRank& late) {
    v.object_description("The rank the others waited for in collectives.");
    v.field("node", late.node);
    v.field("rank", late.rank);
    v.field("arrived_last_share", late.arrived_last_share);
    v.field("mean_late_ns", late.mean_late_ns,
            {.description = "After the next-to-last rank, where it was last (ns)."});
    v.field("span_ns", late.span_ns, {.description = "From the first collective to the last."});
    v.field("late_ns", late.late_ns,
            {.description = "What the job gains when it arrives at each collective as the "
                            "next-to-last rank did (ns)."});
    v.field("job_speedup", late.job_speedup, {.description = "span / (span - late)."});
}

template <class V>
void describe(V& v, const AbsentRankOnNode& absent) {
    v.object_description("A rank that never issued a collective the others entered.");
    v.field("collective", absent.collective,
            {.description = "The collective it never issued (1-based, in the communicator's "
                            "order)."});
    v.field("node", absent.node);
    v.field("rank", absent.rank);
    v.field("pid", absent.pid);
    v.field("last_call", absent.last_call,
            {.description = "Its process's last CUDA or NCCL call; empty when none."});
    v.field("stuck_at", absent.stuck_at,
            {.description = "Where its thread was after that call (file:line in function); "
                            "empty when unknown. Untrusted."});
}

template <class V>
void describe(V& v, const JobCommunicator& communicator) {
    v.object_description(
        "An NCCL communicator of the job, its ranks aligned across the nodes by their "
        "collectives.");
    v.field("nranks", communicator.nranks);
    v.field("aligned", communicator.aligned, {.description = "Collectives every rank reached."});
    v.field("ranks", communicator.ranks, {.description = "By rank."});
    v.field("late_rank", communicator.late_rank,
            {.description = "The rank that arrived last most often, when the others' wait for "
                            "it is at least a tenth of the span; else null."});
    v.field("missing_number", communicator.missing_number,
            {.description = "A collective (1-based) some ranks never issued; 0 when none."});
    v.field("absent", communicator.absent, {.description = "The ranks that did not issue it."});
}

template <class V>
void describe(V& v, const Straggler& straggler) {
    v.object_description(
        "The node the job waits for (a rank that never arrived at a collective, else the rank the "
        "others waited for, else the slowest GPU loop) and its largest cause.");
    v.field("node", straggler.node);
    v.field("basis", std::string(straggler_basis_name(straggler.basis)),
            {.allowed_values = report::kStragglerBasisNames});
    v.field("rank", known_rank(straggler.rank),
            {.description = "Its NCCL rank where a collective names it, else its pushed rank."});
    v.field("loop_calls_per_s", straggler.loop_calls_per_s);
    v.field("cause", straggler.cause);
    v.field("cause_lost_ns", straggler.cause_lost_ns);
    v.field("slower_than_median_pct", straggler.slower_than_median_pct);
    v.field("actor", straggler.actor,
            {.description = "The largest cause's actor; empty without a chain. Untrusted."});
    v.field("container", straggler.container,
            {.description = "The actor's container and pod, where its cgroup path names them."});
    v.field("cause_speedup", straggler.cause_speedup,
            {.description = "What removing that cause speeds its node's loop up by."});
    v.field("device_twice_as_fast", straggler.device_twice_as_fast);
    v.field("late", straggler.late, {.description = "basis others_wait_for_it: how late."});
    v.field("absent", straggler.absent,
            {.description = "basis never_arrived: where it was last seen."});
}

template <class V>
void describe(V& v, const FleetOverview& overview) {
    v.object_description("Every node of a job side by side, summed in ClickHouse.");
    v.field("job", overview.job);
    v.field("nodes", overview.nodes, {.description = "In node name order."});
    v.field("communicators", overview.communicators,
            {.description = "The job's NCCL communicators whose every rank was pushed."});
    v.field("clock_reference", overview.clock_reference,
            {.description = "The node whose clock the others' are set to; empty without "
                            "communicators."});
    v.field("straggler", overview.straggler,
            {.description = "The node the job waits for and its largest cause; null when no "
                            "node has CUDA calls."});
    v.field("skew_pct", overview.skew_pct);
}

}  // namespace causeway::fleet
