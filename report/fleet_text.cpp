#include "report/fleet_text.hpp"

#include "report/chain_text.hpp"
#include "report/human_units.hpp"
#include "report/text_table.hpp"

namespace causeway::report {
namespace {

std::string rank_text(const std::string& node, std::int64_t rank) {
    return node + (rank < 0 ? "" : " (rank " + std::to_string(rank) + ")");
}

std::string signed_duration(std::int64_t ns) {
    return (ns < 0 ? "-" : "+") + format_duration(ns < 0 ? -ns : ns);
}

// "3 ranks, 400 collectives aligned; clocks set from the collectives: node-1 +37.0 ms, ..."
std::string communicators_text(const fleet::FleetOverview& overview) {
    std::string text;
    for (const auto& communicator : overview.communicators) {
        text += "Collectives: " + std::to_string(communicator.nranks) + " ranks on " +
                std::to_string(communicator.ranks.size()) + " processes, " +
                std::to_string(communicator.aligned) + " collectives reached by every rank\n";
    }
    std::string clocks;
    for (const auto& node : overview.nodes) {
        if (node.clock_offset_ns && node.node != overview.clock_reference) {
            clocks += (clocks.empty() ? "" : ", ") + node.node + " " +
                      signed_duration(*node.clock_offset_ns);
        }
    }
    if (!clocks.empty()) {
        text += "Clocks, set from when the ranks left each collective: " + clocks + " against " +
                overview.clock_reference + "\n";
    }
    return text;
}

// Why the straggler is the straggler.
std::string basis_text(const fleet::Straggler& s) {
    if (s.absent) {
        return " never issued collective " + std::to_string(s.absent->collective) +
               ", which the other ranks entered" +
               (s.absent->last_call.empty() ? "" : "; its last call was " + s.absent->last_call) +
               (s.absent->stuck_at.empty() ? "" : ", last seen at " + s.absent->stuck_at);
    }
    if (s.late) {
        return ": the other ranks wait for it; it arrived last at " +
               format_percent(s.late->arrived_last_share) + " of the collectives, " +
               format_duration(s.late->mean_late_ns) +
               " after the next rank on average; arriving on time, the job would run about " +
               format_decimal(s.late->job_speedup, 1) + "x as fast";
    }
    return ", GPU loop at " + format_decimal(s.loop_calls_per_s, 1) + " calls/s, " +
           format_decimal(s.slower_than_median_pct, 1) + "% below the median node";
}

std::string cause_text(const fleet::Straggler& s) {
    std::string text =
        s.cause +
        (s.actor.empty() ? "" : " by " + s.actor + analysis::in_container_text(s.container));
    if (s.cause_speedup) {
        analysis::CriticalPathCost cost;
        cost.speedup = cost.speedup_low = cost.speedup_high = *s.cause_speedup;
        cost.device_twice_as_fast = s.device_twice_as_fast;
        text += ", " + speedup_text(cost);
    }
    return text + (s.cause_lost_ns > 0 ? " (" + format_duration(s.cause_lost_ns) + " lost)" : "");
}

}  // namespace

std::string render_fleet(const fleet::FleetOverview& overview) {
    using Align = TextTable::Align;
    const bool collectives = !overview.communicators.empty();
    std::vector<std::string> header{"NODE", "RANK", "LOOP CALLS/S", "LOOP CALLS", "VERDICT"};
    std::vector<Align> align{Align::kLeft, Align::kRight, Align::kRight, Align::kRight,
                             Align::kLeft};
    if (collectives) {
        header.push_back("WAITED FOR RANKS");
        align.push_back(Align::kRight);
    }
    header.push_back("TIME LOST BY CAUSE");
    align.push_back(Align::kLeft);
    TextTable table(header, align);
    for (const auto& node : overview.nodes) {
        std::string causes;
        for (const auto& cause : node.causes) {
            if (cause.lost_ns > 0) {
                causes += (causes.empty() ? "" : ", ") + cause.cause + " " +
                          format_duration(cause.lost_ns);
            }
        }
        std::vector<std::string> row{node.node, node.rank < 0 ? "-" : std::to_string(node.rank),
                                     format_decimal(node.loop_calls_per_s, 1),
                                     std::to_string(node.loop_calls), node.verdict};
        if (collectives) {
            row.push_back(format_duration(node.collective_wait_ns));
        }
        row.push_back(causes.empty() ? "-" : causes);
        table.add_row(row);
    }
    std::string text = "Job " + overview.job + ": " + std::to_string(overview.nodes.size()) +
                       " nodes\n" + table.render() + communicators_text(overview);
    if (overview.straggler) {
        const auto& s = *overview.straggler;
        text += "Straggler: " + rank_text(s.node, s.rank) + basis_text(s) + ".\n";
        text += std::string(s.absent ? "Its node's largest cause while it ran: "
                                     : "Its node's cause: ") +
                cause_text(s) + "\n";
        text += "Skew: the slowest node's loop runs " + format_decimal(overview.skew_pct, 1) +
                "% slower than the fastest's.\n";
        text += "Next: causeway explain --clickhouse URL --job " + overview.job + " --node " +
                s.node + "\n";
    }
    return text;
}

}  // namespace causeway::report
