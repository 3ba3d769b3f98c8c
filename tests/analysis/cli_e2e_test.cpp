// The causeway binary end to end on fixture DBs: explain (text and --json), stats, query, check,
// and the errors a person gets for a missing DB, a bad window or an unknown pid.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <sys/wait.h>
#include <array>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <random>

#include "tests/analysis/fixture_builder.hpp"

using namespace causeway::testing;

namespace {

struct Run {
    int exit_code = -1;
    std::string output;  // stdout and stderr
};

Run run(const std::string& arguments) {
    std::string command = std::string(CAUSEWAY_BINARY) + " " + arguments + " 2>&1";
    Run result;
    FILE* pipe = popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    std::array<char, 4096> buffer{};
    std::size_t got;
    while ((got = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) {
        result.output.append(buffer.data(), got);
    }
    int status = pclose(pipe);
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return result;
}

// A training thread preempted by a DataLoader worker in every tenth synchronisation and between
// its steps.
std::string contended_trace(FixtureBuilder& fixture) {
    auto main_process = fixture.process(100, "python");
    auto main_thread = fixture.thread(main_process, 100, "python");
    auto worker = fixture.process(101, "pt_data_worker", main_process);
    auto worker_thread = fixture.thread(worker, 101, "pt_data_worker");
    for (int i = 0; i < 200; ++i) {
        std::int64_t t0 = i * 10 * kMs;
        fixture.call(main_thread, op::kStreamSynchronize, t0, i % 10 == 0 ? 6 * kMs : 200 * kUs);
        if (i % 10 == 0) {
            fixture.preempted(main_thread, t0 + 100 * kUs, 5 * kMs, worker_thread);
        }
        // Between calls, preempted again until just before the next step.
        const std::int64_t from = i % 10 == 0 ? 6200 * kUs : 500 * kUs;
        fixture.preempted(main_thread, t0 + from, 9800 * kUs - from, worker_thread);
    }
    fixture.load(2000 * kMs);
    return fixture.path();
}

}  // namespace

TEST_CASE("explain prints the verdict first, and --json the same diagnosis", "[cli][e2e]") {
    FixtureBuilder fixture;
    std::string db = contended_trace(fixture);
    Run text = run("explain --db " + db);
    CHECK(text.exit_code == 0);
    CHECK(text.output.rfind("Verdict: CPU-CONTENDED", 0) == 0);
    CHECK(text.output.find("pt_data_worker") != std::string::npos);

    Run json = run("explain --json --db " + db);
    REQUIRE(json.exit_code == 0);
    auto parsed = nlohmann::json::parse(json.output);
    CHECK(parsed["verdict"]["name"] == "CPU-CONTENDED");
    CHECK(parsed["chains"][0]["root_cause_class"] == "CPU-CONTENDED");
    CHECK(parsed["chains"][0]["confidence"] == "HIGH");
    CHECK(parsed["processes"][0]["role"] == "training");
    CHECK(parsed["data_quality"]["data_loss"] == false);
}

TEST_CASE("stats and query answer on the same trace", "[cli][e2e]") {
    FixtureBuilder fixture;
    std::string db = contended_trace(fixture);
    Run stats = run("stats --db " + db + " --op cudaStreamSynchronize");
    CHECK(stats.exit_code == 0);
    CHECK(stats.output.find("cudaStreamSynchronize") != std::string::npos);
    Run query = run("query --db " + db + " \"SELECT count(*) AS n FROM cuda_call\"");
    CHECK(query.exit_code == 0);
    CHECK(query.output.find("200") != std::string::npos);
    Run write = run("query --db " + db + " \"DELETE FROM cuda_call\"");
    CHECK(write.exit_code != 0);
    CHECK(write.output.find("refused") != std::string::npos);
}

TEST_CASE("bad input gets an error that says what to do", "[cli][e2e]") {
    FixtureBuilder fixture;
    std::string db = contended_trace(fixture);
    Run missing = run("explain --db /nonexistent/run.db");
    CHECK(missing.exit_code != 0);
    CHECK(missing.output.find("no such file") != std::string::npos);
    Run window = run("explain --db " + db + " --window 5s");
    CHECK(window.exit_code != 0);
    CHECK(window.output.find("A..B") != std::string::npos);
    Run pid = run("explain --db " + db + " --pid 999");
    CHECK(pid.exit_code != 0);
    CHECK(pid.output.find("traced pids: 100, 101") != std::string::npos);
}

TEST_CASE("check --json gives the readiness the text shows, with the same exit code",
          "[cli][e2e]") {
    Run text = run("check");
    Run json = run("check --json");
    REQUIRE(json.exit_code == text.exit_code);
    auto parsed = nlohmann::json::parse(json.output);
    CHECK(parsed["ready"] == (json.exit_code == 0));
    CHECK((text.output.rfind("Ready to record: yes", 0) == 0) == parsed["ready"].get<bool>());
    CHECK_FALSE(parsed["kernel_release"].get<std::string>().empty());
    CHECK(parsed["problems"].is_array());
    CHECK(parsed["cuda_process_count"] == parsed["cuda_processes"].size());
}

TEST_CASE("compare prints its verdict line first, recordings with no common op are refused",
          "[cli][e2e]") {
    FixtureBuilder fixture;
    const std::string db = contended_trace(fixture);
    Run same = run("compare " + db + " " + db);
    CHECK(same.exit_code == 0);
    CHECK(same.output.rfind("steps/s unchanged within noise (+0% steps/s); nothing new\n", 0) == 0);
    CHECK(same.output.find("How: a step is one cycle") != std::string::npos);
    CHECK(same.output.find("Mann-Whitney U") != std::string::npos);
    Run json = run("compare " + db + " " + db + " --json");
    REQUIRE(json.exit_code == 0);
    auto parsed = nlohmann::json::parse(json.output);
    CHECK(parsed["throughput_ratio"] == 1.0);
    CHECK(parsed["before"]["loop"]["marker_op"] == "cudaStreamSynchronize");

    FixtureBuilder other;
    auto process = other.process(300, "allocator");
    auto thread = other.thread(process, 300, "allocator");
    for (int i = 0; i < 30; ++i) {
        other.call(thread, op::kMalloc, i * kMs, 10 * kUs, 4096);
    }
    other.load(40 * kMs);
    Run refused = run("compare " + db + " " + other.path());
    CHECK(refused.exit_code == 2);
    CHECK(refused.output.find("no CUDA operation was called in both") != std::string::npos);
    Run missing = run("compare " + db + " /nonexistent.db");
    CHECK(missing.exit_code == 2);
    CHECK(missing.output.find("after:") != std::string::npos);
}

TEST_CASE("names that are not UTF-8 are shown as U+FFFD in every output, and escapes are dropped",
          "[cli][e2e]") {
    // A local process named with invalid UTF-8 and a terminal escape took the trainer's CPU.
    const std::string hostile = "hog\xff\xfe\x1b[2J";
    FixtureBuilder fixture;
    auto main_process = fixture.process(100, "python");
    auto main_thread = fixture.thread(main_process, 100, "python");
    auto hog = fixture.thread(fixture.process(900, hostile, std::nullopt, false), 900, hostile);
    for (int i = 0; i < 200; ++i) {
        std::int64_t t0 = i * 10 * kMs;
        fixture.call(main_thread, op::kStreamSynchronize, t0, 200 * kUs);
        fixture.preempted(main_thread, t0 + 500 * kUs, 9 * kMs, hog);
    }
    fixture.load(2000 * kMs);
    const std::string db = fixture.path();
    const std::string replaced = "hog\xEF\xBF\xBD\xEF\xBF\xBD[2J";

    Run text = run("explain --db " + db);
    CHECK(text.exit_code == 0);
    CHECK(text.output.find(replaced) != std::string::npos);
    CHECK(text.output.find('\x1b') == std::string::npos);
    // Every JSON output parses; those that name processes show the name repaired.
    for (const auto& [command, names_processes] :
         {std::pair{"explain --json --db " + db, true},
          {"stats --json --db " + db, false},
          {"compare --json " + db + " " + db, true},
          {"query --json --db " + db + " \"SELECT comm FROM process\"", true}}) {
        INFO(command);
        Run json = run(command);
        CHECK(json.exit_code == 0);
        CHECK_NOTHROW(nlohmann::json::parse(json.output));
        if (names_processes) {
            CHECK(json.output.find("hog\xEF\xBF\xBD\xEF\xBF\xBD") != std::string::npos);
        }
    }
}

TEST_CASE("random bytes as names reach explain, stats, compare and export as valid UTF-8",
          "[cli][e2e]") {
    // Seeded random bytes (1..255: invalid UTF-8, controls, escapes) as the names of a process
    // outside the job that takes the trainer's CPU, of its thread, and of the trainer's worker.
    std::mt19937 random(7);
    std::uniform_int_distribution<int> byte(1, 255);
    std::uniform_int_distribution<int> length(1, 15);
    auto random_name = [&] {
        std::string name(static_cast<std::size_t>(length(random)), '\0');
        for (char& c : name) {
            c = static_cast<char>(byte(random));
        }
        return name;
    };
    for (int round = 0; round < 5; ++round) {
        FixtureBuilder fixture;
        auto main_process = fixture.process(100, "python");
        auto main_thread = fixture.thread(main_process, 100, "python");
        auto worker =
            fixture.thread(fixture.process(101, random_name(), main_process), 101, random_name());
        auto hog = fixture.thread(fixture.process(900, random_name(), std::nullopt, false), 900,
                                  random_name());
        for (int i = 0; i < 200; ++i) {
            std::int64_t t0 = i * 10 * kMs;
            fixture.call(main_thread, op::kStreamSynchronize, t0, 200 * kUs);
            fixture.preempted(main_thread, t0 + 500 * kUs, 4 * kMs, hog);
            fixture.preempted(main_thread, t0 + 5 * kMs, 4 * kMs, worker);
        }
        fixture.load(2000 * kMs);
        const std::string db = fixture.path();
        TempDir out;
        Run text = run("explain --db " + db);
        INFO(text.output);
        CHECK(text.exit_code == 0);
        CHECK(text.output.find('\x1b') == std::string::npos);
        for (const std::string& command : {"explain --json --db " + db, "stats --json --db " + db,
                                           "compare --json " + db + " " + db}) {
            INFO(command);
            Run json = run(command);
            CHECK(json.exit_code == 0);
            CHECK_NOTHROW(nlohmann::json::parse(json.output).dump());
        }
        const std::string exported = out.file("trace.json");
        CHECK(run("export --format perfetto " + db + " " + exported).exit_code == 0);
        std::ifstream in(exported);
        const std::string perfetto((std::istreambuf_iterator<char>(in)), {});
        CHECK_NOTHROW(nlohmann::json::parse(perfetto).dump());
    }
}

TEST_CASE("what is not a regular file is refused before it is opened", "[cli][e2e]") {
    FixtureBuilder fixture;
    const std::string db = contended_trace(fixture);
    TempDir dir;
    const std::string fifo = dir.file("trace.fifo");
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    // Reading the FIFO would wait for a writer forever: compare once hung here.
    for (const auto& [path, kind] : {std::pair{fifo, "a named pipe (FIFO)"},
                                     {std::string("/dev/zero"), "a character device"},
                                     {dir.path(), "a directory"}}) {
        INFO(path);
        Run compared = run("compare " + db + " " + path);
        CHECK(compared.exit_code == 2);
        CHECK(compared.output.find(path + " is " + kind + ", not a trace DB file") !=
              std::string::npos);
        Run explained = run("explain --db " + path);
        CHECK(explained.exit_code != 0);
        CHECK(explained.output.find(kind) != std::string::npos);
    }
}
