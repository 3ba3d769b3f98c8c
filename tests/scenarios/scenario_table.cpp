#include "tests/scenarios/scenario_table.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace causeway::testing {

std::vector<ScenarioSpec> read_scenario_table(const std::string& path) {
    std::ifstream file(path);
    if (!file) {
        throw std::runtime_error("cannot read the scenario table " + path);
    }
    std::vector<ScenarioSpec> scenarios;
    std::string line;
    for (int number = 1; std::getline(file, line); ++number) {
        if (line.empty() || line.front() == '#') {
            continue;
        }
        std::istringstream columns(line);
        ScenarioSpec spec;
        columns >> spec.name >> spec.program >> spec.verdict >> spec.top_chain >> spec.actor >>
            spec.competitor >> spec.neighbour;
        std::getline(columns >> std::ws, spec.fix);
        if (spec.fix.empty()) {  // a short line leaves the last column empty
            throw std::runtime_error(path + ":" + std::to_string(number) +
                                     ": expected eight columns (see the file's header)");
        }
        scenarios.push_back(spec);
    }
    return scenarios;
}

ScenarioSpec find_scenario(const std::string& path, const std::string& name) {
    for (const auto& spec : read_scenario_table(path)) {
        if (spec.name == name) {
            return spec;
        }
    }
    throw std::runtime_error("the scenario table " + path + " has no scenario " + name);
}

}  // namespace causeway::testing
