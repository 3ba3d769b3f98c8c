// The scenario table itself: every line names a program that was built, a known verdict and a
// fix of a known form, so the e2e tests and scripts/run-scenarios.sh read a sound file.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <set>
#include <string>

#include "analysis/diagnose/causal_chain.hpp"
#include "analysis/diagnose/cause_kind.hpp"
#include "tests/scenarios/scenario_table.hpp"
#include "tests/support/temp_dir.hpp"

using causeway::analysis::cause_kind_name;
using causeway::analysis::CauseKind;
using causeway::analysis::verdict_class_name;
using causeway::analysis::VerdictClass;
using causeway::testing::read_scenario_table;

namespace {

// Every name of an enum, from the function that names its values (the one list of them).
template <auto kLast>
std::set<std::string> names_of(const char* (*name_of)(decltype(kLast))) {
    std::set<std::string> names;
    for (int i = 0; i <= static_cast<int>(kLast); ++i) {
        names.insert(name_of(static_cast<decltype(kLast)>(i)));
    }
    return names;
}

}  // namespace

TEST_CASE("the scenario table lists sixteen built programs with known verdicts and actors") {
    const auto verdicts = names_of<VerdictClass::kLast>(verdict_class_name);
    const auto actor_kinds = names_of<CauseKind::kLast>(cause_kind_name);
    const auto scenarios = read_scenario_table(CAUSEWAY_SCENARIO_TABLE);
    REQUIRE(scenarios.size() == 16);
    for (const auto& spec : scenarios) {
        INFO(spec.name);
        CHECK(::access((std::string(CAUSEWAY_SCENARIO_PROGRAMS) + "/" + spec.program).c_str(),
                       X_OK) == 0);
        REQUIRE_FALSE(spec.verdicts.empty());
        for (const auto& verdict : spec.verdicts) {
            CHECK(verdicts.contains(verdict));
        }
        // Only a fix can settle a verdict that depends on the machine.
        CHECK((spec.verdicts.size() == 1 || spec.calibration == "removes"));
        CHECK((spec.calibration == "removes" || spec.calibration == "advised" ||
               spec.calibration == "advised-at-most" || spec.calibration == "-"));
        CHECK((spec.fix != "-" || spec.calibration == "-"));
        CHECK((spec.top_chain == "-" || verdicts.contains(spec.top_chain)));
        CHECK((spec.actor == "-" ||
               actor_kinds.contains(spec.actor.substr(0, spec.actor.find(':')))));
        if (spec.neighbour != "-") {
            CHECK(::access((std::string(CAUSEWAY_SCENARIO_PROGRAMS) + "/" + spec.neighbour).c_str(),
                           X_OK) == 0);
        }
        CHECK((spec.fix == "-" || spec.fix == "no-neighbour" || spec.fix.rfind("--", 0) == 0));
    }
}

TEST_CASE("a short line in the scenario table is refused with its line number") {
    causeway::testing::TempDir dir;
    std::ofstream(dir.file("bad.tsv")) << "# header\nhealthy healthy HEALTHY - -\n";
    CHECK_THROWS_WITH(
        read_scenario_table(dir.file("bad.tsv")),
        Catch::Matchers::Contains("bad.tsv:2") && Catch::Matchers::Contains("nine columns"));
}
