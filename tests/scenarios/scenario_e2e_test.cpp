// End to end: every scenario program is recorded by the real collector (root, eBPF) and diagnosed
// by `causeway explain`; the verdict, the top chain and the named competitor must be the ones
// tests/scenarios/scenarios.tsv expects, and the fixed variant must train faster.
#include <nlohmann/json.hpp>

#include <catch2/catch.hpp>
#include <chrono>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/scenarios/child_process.hpp"
#include "tests/scenarios/own_session.hpp"
#include "tests/scenarios/scenario_table.hpp"
#include "tests/support/runtime_guard.hpp"
#include "tests/support/temp_dir.hpp"

using causeway::testing::Background;
using causeway::testing::Finished;
using causeway::testing::ScenarioSpec;
using causeway::testing::TempDir;

namespace {

constexpr const char* kDurationS = "2.5";  // training time of each recorded run (seconds)
constexpr double kTimeoutS = 60;           // a run that takes longer has hung
constexpr double kMinFixSpeedup = 1.1;     // the fix must make training at least this much faster

std::string program_path(const std::string& program) {
    return std::string(CAUSEWAY_SCENARIO_PROGRAMS) + "/" + program;
}

std::vector<std::string> split_words(const std::string& text) {
    std::istringstream words(text);
    std::vector<std::string> split;
    for (std::string word; words >> word;) {
        split.push_back(word);
    }
    return split;
}

// The value of the program's last `throughput_batches_per_s=` line; 0 when there is none.
double batches_per_s(const std::string& out) {
    const std::string key = "throughput_batches_per_s=";
    const auto at = out.rfind(key);
    return at == std::string::npos ? 0 : std::stod(out.substr(at + key.size()));
}

// Records the scenario's program (with `extra_args`) into `db`; returns its batches/s.
double record(const ScenarioSpec& spec, const std::string& db,
              const std::vector<std::string>& extra_args) {
    std::vector<std::string> argv = {
        CAUSEWAY_COLLECTOR_PATH,    "record",     "--db",    db, "--quiet", "--",
        program_path(spec.program), "--duration", kDurationS};
    argv.insert(argv.end(), extra_args.begin(), extra_args.end());
    const Finished run = causeway::testing::run_to_completion(argv, kTimeoutS);
    INFO("recording " << spec.name << "\nstdout:\n" << run.out << "\nstderr:\n" << run.err);
    REQUIRE(run.exit_code == 0);
    const double throughput = batches_per_s(run.out);
    REQUIRE(throughput > 0);
    return throughput;
}

Finished explain(const std::string& db, bool json) {
    std::vector<std::string> argv = {CAUSEWAY_CLI_PATH, "explain", "--db", db};
    if (json) {
        argv.push_back("--json");
    }
    Finished run = causeway::testing::run_to_completion(argv, kTimeoutS);
    INFO("causeway explain --db " << db << (json ? " --json" : "") << "\nstderr:\n" << run.err);
    REQUIRE(run.exit_code == 0);
    return run;
}

void check_diagnosis(const ScenarioSpec& spec, const std::string& db) {
    const auto diagnosis = nlohmann::json::parse(explain(db, true).out);
    INFO("causeway explain --json:\n" << diagnosis.dump(2));
    CHECK(diagnosis.at("verdict").at("name") == spec.verdict);
    const auto& chains = diagnosis.at("chains");
    if (spec.top_chain == "-") {
        for (const auto& chain : chains) {
            CHECK(chain.at("confidence") != "HIGH");
        }
    } else {
        REQUIRE_FALSE(chains.empty());
        CHECK(chains[0].at("root_cause_class") == spec.top_chain);
    }
    if (spec.competitor != "-") {
        REQUIRE_FALSE(chains.empty());
        std::vector<std::string> named;
        for (const auto& competitor : chains[0].at("competitors")) {
            named.push_back(competitor.at("comm"));
        }
        CHECK_THAT(named, Catch::Matchers::VectorContains(spec.competitor));
    }
    const std::string text = explain(db, false).out;
    CHECK(text.rfind("Verdict: " + spec.verdict, 0) == 0);
}

void check_scenario(const std::string& name) {
    causeway::testing::require_runtime_or_skip();
    const std::string shared = causeway::testing::run_in_own_session();
    if (!shared.empty()) {
        WARN("sharing the CPUs with the rest of the machine: " << shared);
    }
    const ScenarioSpec spec = causeway::testing::find_scenario(CAUSEWAY_SCENARIO_TABLE, name);
    TempDir dir;
    double before = 0;
    {
        std::optional<Background> neighbour;
        if (spec.neighbour != "-") {
            neighbour.emplace(std::vector<std::string>{program_path(spec.neighbour), "--duration",
                                                       std::to_string(kTimeoutS)});
            std::this_thread::sleep_for(std::chrono::milliseconds(500));  // up to speed first
        }
        before = record(spec, dir.file("before.db"), {});
    }
    check_diagnosis(spec, dir.file("before.db"));
    if (spec.fix == "-") {
        return;
    }
    const auto fix_args =
        spec.fix == "no-neighbour" ? std::vector<std::string>{} : split_words(spec.fix);
    const double after = record(spec, dir.file("fixed.db"), fix_args);
    INFO("batches/s before the fix " << before << ", after " << after);
    CHECK(after > before * kMinFixSpeedup);
}

}  // namespace

TEST_CASE("dataloader-oversubscribed: CPU-CONTENDED by pt_data_worker, direct indexing is faster") {
    check_scenario("dataloader-oversubscribed");
}

TEST_CASE("input-starved: INPUT-BOUND, more workers are faster") {
    check_scenario("input-starved");
}

TEST_CASE("gpu-bound: GPU-BOUND, cheaper kernels are faster") {
    check_scenario("gpu-bound");
}

TEST_CASE("noisy-neighbour: CPU-CONTENDED by noisy_hog outside the tree, faster without it") {
    check_scenario("noisy-neighbour");
}

TEST_CASE("pageable-transfer: TRANSFER-BOUND, pinned memory is faster") {
    check_scenario("pageable-transfer");
}

TEST_CASE("allocator-churn: ALLOCATION-CHURN, allocating once is faster") {
    check_scenario("allocator-churn");
}

TEST_CASE("healthy: HEALTHY and no HIGH chain") {
    check_scenario("healthy");
}
