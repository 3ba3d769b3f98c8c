// End to end through the causeway command: import an Ingero trace, explain it (text and JSON),
// export it. Runs on the in-repository fixture and on each shared Ingero recording.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "analysis/diagnose/causal_chain.hpp"
#include "tests/interop/ingero_fixture.hpp"

using causeway::testing::TempDir;

namespace {

struct CommandResult {
    int exit_code = -1;
    std::string output;  // stdout and stderr
};

CommandResult run(const std::string& arguments) {
    const std::string command = std::string(CAUSEWAY_CLI) + " " + arguments + " 2>&1";
    CommandResult result;
    std::FILE* pipe = ::popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    char buffer[4096];
    std::size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) {
        result.output.append(buffer, n);
    }
    int status = ::pclose(pipe);
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return result;
}

std::string quoted(const std::string& path) {
    return "'" + path + "'";
}

// import -> explain (text, JSON) -> export, with the checks every Ingero input must pass.
void import_explain_export(const std::string& in_path) {
    TempDir dir;
    const auto digest = causeway::testing::file_digest(in_path);
    const auto db = dir.file("imported.db");
    auto imported = run("import --from ingero " + quoted(in_path) + " " + quoted(db));
    INFO(imported.output);
    REQUIRE(imported.exit_code == 0);
    CHECK_THAT(imported.output, Catch::Contains("What could not be converted"));
    CHECK(causeway::testing::file_digest(in_path) == digest);

    auto text = run("explain --db " + quoted(db));
    INFO(text.output);
    REQUIRE(text.exit_code == 0);
    CHECK(text.output.rfind("Verdict: ", 0) == 0);

    auto json_run = run("explain --json --db " + quoted(db));
    INFO(json_run.output);
    REQUIRE(json_run.exit_code == 0);
    auto diagnosis = nlohmann::json::parse(json_run.output, nullptr, false);
    REQUIRE_FALSE(diagnosis.is_discarded());
    std::set<std::string> verdicts;
    for (int i = 0; i <= static_cast<int>(causeway::analysis::VerdictClass::kLast); ++i) {
        verdicts.insert(causeway::analysis::verdict_class_name(
            static_cast<causeway::analysis::VerdictClass>(i)));
    }
    CHECK(verdicts.count(diagnosis["verdict"]["name"].get<std::string>()) == 1);
    // The diagnosis carries the import's own statement of what the evidence cannot show.
    CHECK_THAT(json_run.output, Catch::Contains("offcpu_") || Catch::Contains("no_aggregates") ||
                                    Catch::Contains("_counts_only"));

    auto exported =
        run("export --format perfetto " + quoted(db) + " " + quoted(dir.file("trace.json")));
    INFO(exported.output);
    CHECK(exported.exit_code == 0);
    CHECK(std::filesystem::file_size(dir.file("trace.json")) > 0);
}

}  // namespace

TEST_CASE("causeway import, explain and export work on the Ingero fixture", "[interop][cli]") {
    TempDir dir;
    import_explain_export(causeway::testing::build_ingero_fixture(dir));
}

TEST_CASE("causeway import, explain and export work on each shared Ingero recording",
          "[interop][cli][shared]") {
    for (const auto& in_path : causeway::testing::shared_ingero_dbs_or_skip()) {
        DYNAMIC_SECTION(std::filesystem::path(in_path).filename().string()) {
            import_explain_export(in_path);
        }
    }
}

TEST_CASE("causeway import and export refuse bad input with a clear message", "[interop][cli]") {
    TempDir dir;
    auto missing = run("import --from ingero " + quoted(dir.file("nope.db")) + " " +
                       quoted(dir.file("out.db")));
    CHECK(missing.exit_code == 1);
    CHECK_THAT(missing.output, Catch::Contains("no such file"));
    auto format =
        run("import --from nsys " + quoted(dir.file("nope.db")) + " " + quoted(dir.file("out.db")));
    CHECK(format.exit_code != 0);
    CHECK_THAT(format.output, Catch::Contains("ingero"));
    auto not_trace = run("export --format perfetto " + quoted(dir.file("nope.db")) + " " +
                         quoted(dir.file("out.json")));
    CHECK(not_trace.exit_code == 1);
    CHECK_FALSE(std::filesystem::exists(dir.file("out.json")));
}
