#include "report/fleet_json.hpp"

namespace causeway::report {

nlohmann::json to_json(const fleet::FleetOverview& overview) {
    nlohmann::json nodes = nlohmann::json::array();
    for (const auto& node : overview.nodes) {
        nlohmann::json causes = nlohmann::json::array();
        for (const auto& cause : node.causes) {
            causes.push_back({{"cause", cause.cause}, {"lost_ns", cause.lost_ns}});
        }
        nodes.push_back({{"node", node.node},
                         {"rank", node.rank < 0 ? nlohmann::json() : nlohmann::json(node.rank)},
                         {"loop_calls", node.loop_calls},
                         {"loop_span_ns", node.loop_span_ns},
                         {"loop_calls_per_s", node.loop_calls_per_s},
                         {"all_calls", node.all_calls},
                         {"verdict", node.verdict},
                         {"causes", causes}});
    }
    nlohmann::json straggler;
    if (overview.straggler) {
        const auto& s = *overview.straggler;
        straggler = {{"node", s.node},
                     {"rank", s.rank < 0 ? nlohmann::json() : nlohmann::json(s.rank)},
                     {"loop_calls_per_s", s.loop_calls_per_s},
                     {"cause", s.cause},
                     {"cause_lost_ns", s.cause_lost_ns},
                     {"slower_than_median_pct", s.slower_than_median_pct}};
    }
    return {{"job", overview.job},
            {"nodes", nodes},
            {"straggler", straggler},
            {"skew_pct", overview.skew_pct}};
}

}  // namespace causeway::report
