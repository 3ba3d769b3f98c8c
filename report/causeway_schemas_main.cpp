// causeway-schemas DIR: writes the output JSON Schemas of the tools whose answers are described
// in report/shapes/ into DIR (schemas/tools/ in the tree; the unit test
// tests/schemas/ writes them into a temporary folder and compares).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "report/shapes/comparison.hpp"
#include "report/shapes/diagnosis.hpp"
#include "report/shapes/fleet.hpp"
#include "report/shapes/process_breakdown.hpp"
#include "report/shapes/readiness.hpp"
#include "report/shapes/sql.hpp"
#include "report/shapes/stacks.hpp"
#include "report/shapes/timeline.hpp"
#include "report/shapes/trace_stats.hpp"

namespace {

using causeway::report::output_schema;

std::vector<std::pair<std::string, nlohmann::ordered_json>> tool_output_schemas() {
    return {
        {"get_trace_stats", output_schema<causeway::report::TraceStatsAnswer>()},
        {"get_timeline", output_schema<causeway::report::TimelineAnswer>()},
        {"get_per_process_breakdown", output_schema<causeway::report::ProcessBreakdownAnswer>()},
        {"run_sql", output_schema<causeway::report::SqlAnswer>()},
        {"get_fleet_overview", output_schema<causeway::fleet::FleetOverview>()},
        {"get_stacks", output_schema<causeway::report::StacksAnswer>()},
        {"compare_traces", output_schema<causeway::report::ComparisonAnswer>()},
        {"get_causal_chains", output_schema<causeway::report::CausalChainsAnswer>()},
        {"get_check", output_schema<causeway::report::ReadinessAnswer>()}};
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: causeway-schemas DIR (writes DIR/<tool>.output.json)\n");
        return 2;
    }
    const std::filesystem::path dir = argv[1];
    for (const auto& [tool, schema] : tool_output_schemas()) {
        const std::filesystem::path path = dir / (tool + ".output.json");
        std::ofstream out(path);
        out << schema.dump(2) << '\n';
        if (!out) {
            std::fprintf(
                stderr, "causeway-schemas: cannot write %s: check that %s exists and is writable\n",
                path.c_str(), dir.c_str());
            return 1;
        }
        std::printf("%s\n", path.c_str());
    }
    return 0;
}
