// NCCL ranks in Python: three processes of tests/workloads/python/nccl_rank.py calling the fake
// CUDA runtime and the fake NCCL through ctypes, started by cw_nccl_launch as torchrun starts
// ranks, recorded with --stacks. explain names the late rank's Python line where it was late,
// and a hung rank's line where it stopped.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/collector/runtime/collector_process.hpp"
#include "tests/collector/runtime/python_program.hpp"
#include "tests/support/runtime_guard.hpp"
#include "tests/support/temp_dir.hpp"

using namespace causeway::testing;

namespace {

const std::string kRankScript = python_workload("nccl_rank.py");

// Records three Python ranks with `rank_args` (and `collector_args` before the command).
nlohmann::json record_ranks(const TempDir& dir, const std::vector<std::string>& collector_args,
                            const std::vector<std::string>& rank_args) {
    setenv("CAUSEWAY_FAKECUDA_DIR", FAKECUDA_DIR, 1);
    const std::string db = dir.file("ranks.db");
    std::vector<std::string> args = {"--db", db, "--quiet", "--stacks"};
    args.insert(args.end(), collector_args.begin(), collector_args.end());
    args.insert(args.end(), {"--", CW_NCCL_LAUNCH_BIN, "3", kDebianPython, kRankScript});
    args.insert(args.end(), rank_args.begin(), rank_args.end());
    auto run = run_collector(args, dir.path());
    INFO(run.stderr_text);
    REQUIRE(run.exited_ok());
    return explain_json(db);
}

}  // namespace

TEST_CASE("a late Python rank is named with the line it was late at") {
    require_runtime_or_skip();
    TempDir dir;
    const auto diagnosis =
        record_ranks(dir, {}, {"--steps", "150", "--late-rank", "2", "--late-ms", "3"});
    INFO(diagnosis.dump(2));
    const auto& top = diagnosis["chains"][0];
    CHECK(top["root_cause_class"] == "COLLECTIVE-WAIT");
    CHECK(top["actor"]["name"] == "rank 2");
    REQUIRE(top.contains("actor_line"));
    CHECK(top["actor_line"]["file"] == kRankScript);
    CHECK(top["actor_line"]["function"] == "load_input");
    CHECK(top["actor_line"]["line"] == marker_line(kRankScript, "late-input"));
    CHECK(top["code"].get<std::string>().find("rank 2 is late at") != std::string::npos);
}

TEST_CASE("a hung Python rank is named with the line it stopped at") {
    require_runtime_or_skip();
    TempDir dir;
    const auto diagnosis =
        record_ranks(dir, {"--duration", "3", "--kill-after", "1"},
                     {"--steps", "100000", "--hang-rank", "1", "--hang-after", "20"});
    INFO(diagnosis["ranks"].dump(2));
    REQUIRE(diagnosis["ranks"].size() == 1);
    const auto& missing = diagnosis["ranks"][0]["missing"];
    REQUIRE(missing.is_object());
    CHECK(missing["number"] == 21);
    REQUIRE(missing["absent"].size() == 1);
    const auto& absent = missing["absent"][0];
    CHECK(absent["rank"] == 1);
    REQUIRE(absent.contains("stuck_at"));
    CHECK(absent["stuck_at"]["function"] == "hang_reading_input");
    CHECK(absent["stuck_at"]["line"] == marker_line(kRankScript, "hang"));
    // The text names the file as describe_line does: by its name.
    CHECK(diagnosis["ranks"][0]["missing_text"].get<std::string>().find(
              "last seen at nccl_rank.py:" + std::to_string(marker_line(kRankScript, "hang")) +
              " in hang_reading_input") != std::string::npos);
}
