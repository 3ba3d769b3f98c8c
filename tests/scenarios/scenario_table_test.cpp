// The scenario table itself: every line names a program that was built, a known verdict and a
// fix of a known form, so the e2e tests and scripts/run-scenarios.sh read a sound file.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <set>
#include <string>

#include "tests/scenarios/scenario_table.hpp"
#include "tests/support/temp_dir.hpp"

using causeway::testing::read_scenario_table;

TEST_CASE("the scenario table lists ten built programs with known verdicts and actors") {
    const std::set<std::string> verdicts = {"INPUT-BOUND",    "CPU-CONTENDED",    "GPU-BOUND",
                                            "TRANSFER-BOUND", "ALLOCATION-CHURN", "COLD-START",
                                            "HEALTHY",        "LOCK-CONTENDED"};
    const std::set<std::string> actor_kinds = {"dataloader_workers", "processes_outside",
                                               "lock_holder",        "device",
                                               "transfers",          "allocator"};
    const auto scenarios = read_scenario_table(CAUSEWAY_SCENARIO_TABLE);
    REQUIRE(scenarios.size() == 10);
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
        CHECK((spec.calibration == "removes" || spec.calibration == "bounds" ||
               (spec.calibration == "-" && spec.fix == "-")));
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
