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
        std::string verdicts;
        columns >> spec.name >> spec.program >> verdicts >> spec.top_chain >> spec.actor >>
            spec.competitor >> spec.neighbour >> spec.calibration;
        std::istringstream choices(verdicts);
        for (std::string choice; std::getline(choices, choice, '|');) {
            spec.verdicts.push_back(choice);
        }
        std::getline(columns >> std::ws, spec.fix);
        if (spec.fix.empty()) {  // a short line leaves the last column empty
            throw std::runtime_error(path + ":" + std::to_string(number) +
                                     ": expected nine columns (see the file's header)");
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
