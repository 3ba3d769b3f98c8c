// Command-line values, /proc parsing for snapshots, the progress line and data-quality rows.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <limits>

#include "collector/attach/launcher.hpp"
#include "collector/events/data_quality.hpp"
#include "collector/host/system_sampler.hpp"
#include "collector/record/progress.hpp"
#include "collector/record/record_options.hpp"
#include "tests/support/temp_dir.hpp"
#include "tracedb/data_quality_counters.hpp"

using namespace causeway::collector;

TEST_CASE("durations take a unit and say what is wrong otherwise") {
    CHECK(parse_duration_ns("50us").value() == 50'000);
    CHECK(parse_duration_ns("2ms").value() == 2'000'000);
    CHECK(parse_duration_ns("1.5s").value() == 1'500'000'000);
    CHECK(parse_duration_ns("250").value() == 250);
    CHECK(parse_duration_ns("0").value() == 0);
    auto bad = parse_duration_ns("5 minutes");
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message.find("'5 minutes'") != std::string::npos);
    CHECK_FALSE(parse_duration_ns("-1ms"));
    CHECK_FALSE(parse_duration_ns("ms"));
    // Once overflowed std::llround and set the off-CPU floor to INT64_MIN.
    for (const char* text : {"1e10s", "1e308s", "18446744073709551615", "nan", "inf"}) {
        INFO(text);
        auto huge = parse_duration_ns(text);
        REQUIRE_FALSE(huge);
        CHECK(huge.error().message.find(text) != std::string::npos);
    }
}

TEST_CASE("record options need exactly one target and sane values") {
    RecordOptions options;
    options.db_path = "x.db";
    CHECK(validate(options).error().message.find("nothing to trace") != std::string::npos);
    options.pids = {1};
    options.command = {"true"};
    CHECK(validate(options).error().message.find("not both") != std::string::npos);
    options.command.clear();
    CHECK(validate(options));
    options.cuda_ring_bytes = 5000;
    CHECK(validate(options).error().message.find("power of two") != std::string::npos);
    options.cuda_ring_bytes = 4096;
    options.pids = {0};
    CHECK_FALSE(validate(options));
    options.pids = {1};
    options.record_stacks = true;
    options.native_frames = options.python_frames = false;
    CHECK(validate(options).error().message.find("records no frame") != std::string::npos);
    options.python_frames = true;
    CHECK(validate(options));
    CHECK(options.walks_python());
    CHECK_FALSE(options.walks_native());
    options.db_path.clear();
    CHECK(validate(options).error().message.find("--db") != std::string::npos);
}

TEST_CASE("snapshots are computed from two /proc/stat readings") {
    auto before = parse_proc_stat(
        "cpu  100 0 50 800 50 0 0 0 0 0\ncpu0 1 2 3 4\nctxt 1000\nprocs_running 2\n");
    auto after = parse_proc_stat("cpu  200 0 100 1400 100 0 0 0 0 0\nctxt 3000\nprocs_running 3\n");
    REQUIRE(before);
    REQUIRE(after);
    auto memory = parse_meminfo("MemTotal:  1000 kB\nMemFree: 10 kB\nMemAvailable:  400 kB\n");
    REQUIRE(memory);
    CHECK(memory->first == 1000 * 1024);
    CHECK(memory->second == 400 * 1024);
    auto s = make_snapshot(7, *before, *after, 2'000'000'000, *memory, 0.5);
    // 800 ticks: 100 user, 50 system, 600 idle, 50 iowait.
    CHECK(s.cpu_busy_pct == Approx(18.75));
    CHECK(s.cpu_user_pct == Approx(12.5));
    CHECK(s.cpu_system_pct == Approx(6.25));
    CHECK(s.cpu_iowait_pct == Approx(6.25));
    CHECK(s.ctxt_per_s == Approx(1000.0));
    CHECK(s.procs_running == 3);
    CHECK(s.load1 == 0.5);
    CHECK_FALSE(parse_proc_stat("garbage"));
    CHECK_FALSE(parse_meminfo("MemTotal: 5 kB\n"));
}

TEST_CASE("the progress line shows rates over the last interval") {
    ProgressSample before{1.0, 100, 10, 1, 0, 40, 2};
    ProgressSample now{2.0, 12'100, 310, 3, 5, 46, 3};
    CHECK(progress_line(before, now) ==
          "[   2.0s] cuda 12k/s  sched 300/s  life 2/s  drops 5  probes 46  procs 3");
    CHECK(compact_count(1234) == "1.2k");
    CHECK(compact_count(2'500'000) == "2.5M");
}

TEST_CASE("data quality: every counter is written, losses are data_loss only when non-zero") {
    LossCounters counters;
    counters.cuda.ringbuf_drops = 3;
    counters.sched.ringbuf_drops = 2;
    counters.sched.unmatched_switches = 1;
    auto records = data_quality_records(counters);
    CHECK(records.size() == 14);
    CHECK(total_drops(counters) == 5);
    for (const auto& record : records) {
        INFO(record.source << "." << record.counter);
        CHECK_FALSE(record.description.empty());
        // Every row is a counter of the shared table, from the collector.
        auto known = causeway::tracedb::find_counter(record.source, record.counter);
        REQUIRE(known.has_value());
        CHECK(causeway::tracedb::counter_spec(*known).origin ==
              causeway::tracedb::CounterOrigin::kCollector);
        if (record.value == 0) {
            CHECK(record.severity == causeway::tracedb::Severity::kInfo);
        }
        if (record.source == "cuda" && record.counter == "ringbuf_drops") {
            CHECK(record.value == 3);
            CHECK(record.severity == causeway::tracedb::Severity::kDataLoss);
        }
        if (record.source == "sched" && record.counter == "unmatched_switches") {
            CHECK(record.value == 1);
            CHECK(record.severity == causeway::tracedb::Severity::kInfo);
        }
    }
}

TEST_CASE("data quality: Python walks add their rows, losses as data_loss") {
    LossCounters counters;
    const std::size_t without_python = data_quality_records(counters).size();
    for (const auto& record : data_quality_records(counters)) {
        CHECK(record.source != "python");  // no walk: no python rows
    }
    counters.python_walked = true;
    counters.python.walks = 10;
    counters.python.map_full = 2;
    counters.python_unresolved_frames = 1;
    auto records = data_quality_records(counters);
    CHECK(records.size() == without_python + 9);
    for (const auto& record : records) {
        INFO(record.source << "." << record.counter);
        if (record.source != "python") {
            continue;
        }
        if (record.counter == "map_full") {
            CHECK(record.value == 2);
            CHECK(record.severity == causeway::tracedb::Severity::kDataLoss);
        } else if (record.counter == "walks" || record.counter == "unresolved_frames") {
            CHECK(record.value > 0);
            CHECK(record.severity == causeway::tracedb::Severity::kInfo);
        }
    }
}

TEST_CASE("wait statuses are described in words") {
    CHECK(describe_wait_status(0) == "exited with status 0");
    CHECK(describe_wait_status(7 << 8) == "exited with status 7");
    CHECK(describe_wait_status(9).find("killed by signal 9") == 0);
}

TEST_CASE("a command is checked as execvp will run it, with the reason it cannot be") {
    CHECK(check_runnable("/bin/sh"));
    CHECK(check_runnable("sh"));  // on PATH
    auto missing = check_runnable("/no/such/program");
    REQUIRE_FALSE(missing);
    CHECK(missing.error().message == "cannot run /no/such/program: No such file or directory");
    auto not_on_path = check_runnable("no-such-program-on-any-path");
    REQUIRE_FALSE(not_on_path);
    CHECK_THAT(not_on_path.error().message,
               Catch::StartsWith("cannot run no-such-program-on-any-path: No such file or "
                                 "directory (looked in PATH="));
    auto folder = check_runnable("/tmp");
    REQUIRE_FALSE(folder);
    CHECK_THAT(folder.error().message, Catch::Contains("Permission denied"));
}

TEST_CASE("the kill-after grace takes 0 to 3600 seconds") {
    RecordOptions options;
    options.db_path = "x.db";
    options.command = {"true"};
    options.kill_after_s = 0;
    CHECK(validate(options));
    options.kill_after_s = -1;
    CHECK(validate(options).error().message.find("--kill-after") != std::string::npos);
}

TEST_CASE("durations are finite and bounded, and --db never follows a dangling link") {
    RecordOptions options;
    options.db_path = "x.db";
    options.command = {"true"};
    for (double bad : {-1.0, 1e308, std::numeric_limits<double>::infinity(),
                       std::numeric_limits<double>::quiet_NaN(), 30 * 24 * 3600.0 + 1}) {
        INFO(bad);
        options.duration_s = bad;
        CHECK(validate(options).error().message.find("--duration") != std::string::npos);
    }
    options.duration_s = 30 * 24 * 3600.0;
    CHECK(validate(options));

    causeway::testing::TempDir dir;
    const std::string link = dir.file("run.db");
    const std::string target = dir.file("elsewhere/created.db");
    REQUIRE(::symlink(target.c_str(), link.c_str()) == 0);
    options.db_path = link;
    CHECK(validate(options).error().message.find("symbolic link") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(target));
}
