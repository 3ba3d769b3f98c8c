#pragma once
// The scenario suite's expectations, read from tests/scenarios/scenarios.tsv (the same file
// scripts/run-scenarios.sh reads; its header explains the columns).

#include <optional>
#include <string>
#include <vector>

namespace causeway::testing {

struct ScenarioSpec {
    std::string name;     // e.g. 'dataloader-oversubscribed'
    std::string program;  // file name in the scenario programs folder
    // Expected verdict names: one, or the choices A|B where it depends on the machine's speed
    // (the first is the fix's own cause).
    std::vector<std::string> verdicts;
    // root_cause_class of the chain of the cause the fix removes; '-': no HIGH chain allowed
    std::string top_chain;
    std::string actor;       // that chain's actor: 'kind' or 'kind:name'; '-' when not checked
    std::string competitor;  // a comm that chain must name; '-' for none
    std::string neighbour;   // program started outside the traced tree first; '-' for none
    // 'removes', 'advised', 'advised-at-most' or '-' (the table's header says how)
    std::string calibration;
    std::string fix;  // program arguments of the fixed variant, 'no-neighbour', or '-'
};

// Every scenario in the file, in order. Throws std::runtime_error naming the file and line when
// the file cannot be read or a line does not have the nine columns.
std::vector<ScenarioSpec> read_scenario_table(const std::string& path);

// The scenario called `name` in the file at `path`; throws std::runtime_error when absent.
ScenarioSpec find_scenario(const std::string& path, const std::string& name);

}  // namespace causeway::testing
