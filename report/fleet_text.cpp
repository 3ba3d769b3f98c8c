#include "report/fleet_text.hpp"

#include "analysis/human_units.hpp"
#include "report/text_table.hpp"

namespace causeway::report {

std::string render_fleet(const fleet::FleetOverview& overview) {
    using Align = TextTable::Align;
    TextTable table(
        {"NODE", "RANK", "LOOP CALLS/S", "LOOP CALLS", "VERDICT", "TIME LOST BY CAUSE"},
        {Align::kLeft, Align::kRight, Align::kRight, Align::kRight, Align::kLeft, Align::kLeft});
    for (const auto& node : overview.nodes) {
        std::string causes;
        for (const auto& cause : node.causes) {
            if (cause.lost_ns > 0) {
                causes += (causes.empty() ? "" : ", ") + cause.cause + " " +
                          analysis::format_duration(cause.lost_ns);
            }
        }
        table.add_row({node.node, node.rank < 0 ? "-" : std::to_string(node.rank),
                       analysis::format_decimal(node.loop_calls_per_s, 1),
                       std::to_string(node.loop_calls), node.verdict,
                       causes.empty() ? "-" : causes});
    }
    std::string text = "Job " + overview.job + ": " + std::to_string(overview.nodes.size()) +
                       " nodes\n" + table.render();
    if (overview.straggler) {
        const auto& s = *overview.straggler;
        text +=
            "Straggler: " + s.node + (s.rank < 0 ? "" : " (rank " + std::to_string(s.rank) + ")") +
            ", GPU loop at " + analysis::format_decimal(s.loop_calls_per_s, 1) + " calls/s, " +
            analysis::format_decimal(s.slower_than_median_pct, 1) +
            "% below the median node; cause: " + s.cause +
            (s.actor.empty() ? "" : " by " + s.actor + analysis::in_container_text(s.container)) +
            (s.cause_lost_ns > 0 ? " (" + analysis::format_duration(s.cause_lost_ns) + " lost)"
                                 : "") +
            "\n";
        text += "Skew: the slowest node's loop runs " +
                analysis::format_decimal(overview.skew_pct, 1) + "% slower than the fastest's.\n";
        text += "Next: causeway explain --clickhouse URL --job " + overview.job + " --node " +
                s.node + "\n";
    }
    return text;
}

}  // namespace causeway::report
