// The Perfetto export checked structurally: valid JSON, every slice on a named track of a named
// process, slices on a track nest or are disjoint, timestamps in microseconds; plus what the
// slices and counters say.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "interop/ingero_import.hpp"
#include "interop/json_event_writer.hpp"
#include "interop/perfetto_export.hpp"
#include "interop/track_lanes.hpp"
#include "tests/interop/ingero_fixture.hpp"
#include "tracedb/writer.hpp"

using namespace causeway;
using causeway::testing::TempDir;
using nlohmann::json;

namespace {

using Track = std::pair<std::int64_t, std::int64_t>;  // (pid, tid) in the JSON

std::int64_t to_ns(const json& microseconds) {
    return std::llround(microseconds.get<double>() * 1000.0);
}

struct ParsedTrace {
    json document;
    std::map<std::int64_t, std::string> process_names;
    std::map<Track, std::string> thread_names;
    std::vector<json> slices, counters;
};

// Parses an export and checks the structure every export must have.
ParsedTrace parse_and_validate(const std::string& path) {
    std::ifstream in(path);
    REQUIRE(in);
    ParsedTrace trace;
    trace.document = json::parse(in, nullptr, /*allow_exceptions=*/false);
    REQUIRE_FALSE(trace.document.is_discarded());
    REQUIRE(trace.document["traceEvents"].is_array());
    for (const auto& event : trace.document["traceEvents"]) {
        const std::string phase = event.at("ph");
        if (phase == "M" && event["name"] == "process_name") {
            trace.process_names[event["pid"]] = event["args"]["name"];
        } else if (phase == "M" && event["name"] == "thread_name") {
            trace.thread_names[{event["pid"], event["tid"]}] = event["args"]["name"];
        } else if (phase == "X") {
            trace.slices.push_back(event);
        } else if (phase == "C") {
            trace.counters.push_back(event);
        }
    }
    std::map<Track, std::vector<std::pair<std::int64_t, std::int64_t>>> by_track;
    for (const auto& slice : trace.slices) {
        Track track{slice["pid"], slice["tid"]};
        INFO(slice.dump());
        CHECK(trace.process_names.count(track.first) == 1);
        CHECK(trace.thread_names.count(track) == 1);
        REQUIRE(slice["dur"].get<double>() >= 0);
        by_track[track].push_back({to_ns(slice["ts"]), to_ns(slice["ts"]) + to_ns(slice["dur"])});
    }
    for (const auto& counter : trace.counters) {
        CHECK(trace.process_names.count(counter["pid"]) == 1);
    }
    // On each track a slice either lies inside the enclosing open slice or after it.
    for (auto& [track, intervals] : by_track) {
        std::sort(intervals.begin(), intervals.end(), [](const auto& a, const auto& b) {
            return a.first != b.first ? a.first < b.first : a.second > b.second;
        });
        std::vector<std::int64_t> open;
        for (const auto& [start, end] : intervals) {
            while (!open.empty() && open.back() <= start) {
                open.pop_back();
            }
            INFO("track " << trace.thread_names[track] << " slice " << start << ".." << end);
            CHECK((open.empty() || end <= open.back()));
            open.push_back(end);
        }
    }
    return trace;
}

const json& slice_named(const ParsedTrace& trace, const std::string& name) {
    auto it = std::find_if(trace.slices.begin(), trace.slices.end(),
                           [&](const json& s) { return s["name"] == name; });
    REQUIRE(it != trace.slices.end());
    return *it;
}

std::size_t counters_named(const ParsedTrace& trace, const std::string& name) {
    return static_cast<std::size_t>(
        std::count_if(trace.counters.begin(), trace.counters.end(),
                      [&](const json& c) { return c["name"] == name; }));
}

std::int64_t id_of(Result<std::int64_t> id) {
    INFO((id ? std::string() : id.error().message));
    REQUIRE(id);
    return id.value();
}

// A trace with nested, overlapping and off-CPU intervals, a reused pid and every counter source.
// A writer of a new trace at `path`, recorded by `source`.
tracedb::TraceWriter create_trace(const std::string& path, const std::string& source) {
    tracedb::SessionRecord session{.host = "test",
                                   .kernel = "6.18",
                                   .cpu_count = 2,
                                   .collector_version = "test",
                                   .collector_flags = "",
                                   .source = source};
    auto writer = tracedb::TraceWriter::create(path, session);
    REQUIRE(writer);
    return std::move(*writer);
}

std::string write_fixture_trace(const TempDir& dir) {
    const auto path = dir.file("run.db");
    auto writer = create_trace(path, "synthetic");
    auto python = id_of(writer.add_process({.pid = 100, .comm = "python"}));
    auto hog = id_of(writer.add_process({.pid = 200, .comm = "hog", .in_tree = false}));
    auto reused =
        id_of(writer.add_process({.pid = 100, .comm = "bash", .start_ns = 5'000'000'000}));
    auto main_thread =
        id_of(writer.add_thread({.tid = 100, .process_id = python, .comm = "python"}));
    auto hog_thread = id_of(writer.add_thread({.tid = 200, .process_id = hog, .comm = "hog"}));
    auto bash_thread = id_of(writer.add_thread({.tid = 100, .process_id = reused, .comm = "bash"}));
    auto stream = id_of(writer.add_stream(python, 7));
    REQUIRE(writer.add_cuda_call({.thread_id = main_thread,
                                  .op_id = 7,
                                  .ts_ns = 1'500'000'000,
                                  .dur_ns = 50'000'000,
                                  .bytes = 4096,
                                  .copy_kind = 1,
                                  .host_pinned = 0,
                                  .stream_id = stream}));
    REQUIRE(writer.add_cuda_call({.thread_id = main_thread,
                                  .op_id = 104,
                                  .ts_ns = 1'500'001'000,
                                  .dur_ns = 1'000'000,
                                  .bytes = 4096}));
    // Crosses the end of the copy (imported data can): needs a second lane.
    REQUIRE(writer.add_cuda_call(
        {.thread_id = main_thread, .op_id = 8, .ts_ns = 1'540'000'000, .dur_ns = 20'000'000}));
    REQUIRE(writer.add_cuda_call(
        {.thread_id = bash_thread, .op_id = 10, .ts_ns = 6'000'000'000, .dur_ns = 1'000}));
    REQUIRE(writer.add_offcpu({.thread_id = main_thread,
                               .ts_ns = 1'510'000'000,
                               .dur_ns = 5'000'000,
                               .reason = tracedb::OffCpuReason::kPreempted,
                               .runq_wait_ns = 5'000'000,
                               .cpu = 1,
                               .next_thread_id = hog_thread}));
    REQUIRE(writer.add_offcpu({.thread_id = main_thread,
                               .ts_ns = 2'000'000'000,
                               .dur_ns = 1'000'000,
                               .reason = tracedb::OffCpuReason::kBlocked,
                               .cpu = 0}));
    REQUIRE(writer.add_snapshot({.ts_ns = 1'000'000'000, .cpu_busy_pct = 50}));
    REQUIRE(writer.add_snapshot({.ts_ns = 2'000'000'000, .cpu_busy_pct = 100}));
    REQUIRE(writer.add_page_alloc({python, 0, 10, 40960}));
    REQUIRE(writer.add_page_alloc({python, 100'000'000, 20, 81920}));
    REQUIRE(writer.add_page_alloc({hog, 0, 5, 20480}));
    REQUIRE(writer.add_event_count({.process_id = python,
                                    .bucket_ns = 0,
                                    .bucket_dur_ns = 1'000'000'000,
                                    .event = "sched_switch",
                                    .count = 40,
                                    .stored = 4}));
    REQUIRE(writer.finish(7'000'000'000));
    return path;
}

Result<interop::PerfettoExportSummary> export_file(const std::string& db, const std::string& out) {
    auto trace = tracedb::TraceReader::open(db);
    REQUIRE(trace);
    return interop::export_perfetto(*trace, out);
}

}  // namespace

TEST_CASE("microsecond timestamps are exact", "[interop][perfetto]") {
    CHECK(interop::microseconds_text(1'500'000'000) == "1500000.000");
    CHECK(interop::microseconds_text(1'234'567) == "1234.567");
    CHECK(interop::microseconds_text(7) == "0.007");
    CHECK(interop::microseconds_text(-1'500) == "-1.500");
}

TEST_CASE("track lanes keep slices nested or disjoint", "[interop][perfetto]") {
    interop::TrackLanes lanes;
    CHECK(lanes.place(0, 100) == 0);
    CHECK(lanes.place(10, 20) == 0);    // nested
    CHECK(lanes.place(20, 30) == 0);    // after the nested one, still inside
    CHECK(lanes.place(90, 150) == 1);   // crosses the end of [0, 100)
    CHECK(lanes.place(100, 120) == 0);  // [0, 100) has ended
    CHECK(lanes.place(130, 140) == 0);
    lanes.clear();
    CHECK(lanes.place(95, 96) == 0);
}

TEST_CASE("a trace exports to Chrome/Perfetto JSON with named, consistently nested tracks",
          "[interop][perfetto]") {
    TempDir dir;
    const auto db = write_fixture_trace(dir);
    const auto out = dir.file("trace.json");
    auto summary = export_file(db, out);
    INFO((summary ? std::string() : summary.error().message));
    REQUIRE(summary);
    CHECK(summary->cuda_slices == 4);
    CHECK(summary->offcpu_slices == 2);
    CHECK(summary->overlap_lanes == 1);

    auto trace = parse_and_validate(out);
    CHECK(trace.document["displayTimeUnit"] == "ns");
    CHECK(trace.document["otherData"]["source"] == "synthetic");

    const auto& copy = slice_named(trace, "cudaMemcpyAsync");
    CHECK(to_ns(copy["ts"]) == 1'500'000'000);  // microseconds in the file
    CHECK(copy["ts"].get<double>() == 1'500'000.0);
    CHECK(copy["dur"].get<double>() == 50'000.0);
    CHECK(copy["cat"] == "cuda.copy");
    CHECK(copy["args"]["bytes"] == 4096);
    CHECK(copy["args"]["copy_kind"] == "HtoD");
    CHECK(copy["args"]["host_pinned"] == false);
    CHECK(copy["args"]["stream"] == 7);
    CHECK(trace.thread_names[{copy["pid"], copy["tid"]}] == "python [tid 100]");
    CHECK(trace.process_names[copy["pid"]] == "python [pid 100]");

    const auto& driver = slice_named(trace, "cuMemcpyHtoDAsync_v2");
    CHECK(driver["tid"] == copy["tid"]);  // nested: same track
    const auto& kernel = slice_named(trace, "cudaLaunchKernel");
    CHECK(kernel["tid"] != copy["tid"]);
    const Track kernel_track{kernel["pid"], kernel["tid"]};
    CHECK_THAT(trace.thread_names[kernel_track], Catch::Contains("(overlapping 1)"));

    const auto& preempted = slice_named(trace, "off-CPU: preempted");
    CHECK(preempted["pid"] == copy["pid"]);
    CHECK(preempted["tid"] != copy["tid"]);  // its own track: it overlaps calls partially
    CHECK(trace.thread_names[{preempted["pid"], preempted["tid"]}] == "python [tid 100] off-CPU");
    CHECK(preempted["args"]["reason"] == "preempted");
    CHECK(preempted["args"]["competitor"] == "hog");
    CHECK(preempted["args"]["competitor_pid"] == 200);
    CHECK(preempted["args"]["competitor_tid"] == 200);
    CHECK(preempted["args"]["runq_wait_us"].get<double>() == 5000.0);
    CHECK(preempted["args"]["cpu"] == 1);
    CHECK(slice_named(trace, "off-CPU: blocked")["args"]["competitor"].is_null());

    // A reused pid stays a separate process.
    const auto& bash_call = slice_named(trace, "cudaDeviceSynchronize");
    CHECK(bash_call["pid"] != copy["pid"]);
    CHECK(trace.process_names[bash_call["pid"]] == "bash [pid 100]");
    CHECK_THAT(trace.process_names.at(copy["pid"].get<std::int64_t>() + 1),
               Catch::Contains("outside the traced tree"));

    CHECK(counters_named(trace, "CPU %") == 2);
    // Two adjacent python buckets then a closing zero; one hog bucket and its zero.
    CHECK(counters_named(trace, "page allocations per bucket") == 5);
    CHECK(counters_named(trace, "sched_switch per bucket") == 2);
}

TEST_CASE("slices carry the user's Python line and the folded Python stack",
          "[interop][perfetto][python]") {
    TempDir dir;
    const auto db = dir.file("python.db");
    auto writer = create_trace(db, "causeway-collector");
    auto python = id_of(writer.add_process({.pid = 100, .comm = "python3"}));
    auto thread = id_of(writer.add_thread({.tid = 100, .process_id = python, .comm = "python3"}));
    auto frame = [](std::int64_t depth, std::string file, std::string function, std::int64_t line) {
        return tracedb::PythonFrameRecord{.depth = depth,
                                          .file = std::move(file),
                                          .function = std::move(function),
                                          .line = line,
                                          .first_line = 1,
                                          .code_address = 0x7f00 + depth,
                                          .instr_offset = 2};
    };
    const std::string torch = "/usr/lib/python3/dist-packages/torch/cuda/__init__.py";
    auto sync_stack = id_of(writer.add_stack(
        python, {{.depth = 0, .address = 0x1000, .symbol = "cudaStreamSynchronize"}},
        tracedb::PythonStackRecord{.frames = {frame(0, torch, "synchronize", 792),
                                              frame(1, "/w/train.py", "train_step", 57)}}));
    auto wait_stack = id_of(writer.add_stack(
        python, {}, tracedb::PythonStackRecord{.frames = {frame(0, "/w/train.py", "train", 40)}}));
    REQUIRE(writer.add_cuda_call({.thread_id = thread,
                                  .op_id = 9,
                                  .ts_ns = 1'000'000,
                                  .dur_ns = 2'000'000,
                                  .stack_id = sync_stack}));
    REQUIRE(writer.add_offcpu({.thread_id = thread,
                               .ts_ns = 5'000'000,
                               .dur_ns = 1'000'000,
                               .reason = tracedb::OffCpuReason::kBlocked,
                               .cpu = 0}));
    REQUIRE(writer.add_switch_out_stack(
        {.thread_id = thread, .ts_ns = 5'000'000, .stack_id = wait_stack}));
    REQUIRE(writer.finish(10'000'000));
    const auto out = dir.file("python.json");
    auto summary = export_file(db, out);
    INFO((summary ? std::string() : summary.error().message));
    REQUIRE(summary);
    auto trace = parse_and_validate(out);

    const auto& sync = slice_named(trace, "cudaStreamSynchronize");
    CHECK(sync["args"]["python_line"] == "train.py:57 in train_step");
    CHECK(sync["args"]["python_file"] == "/w/train.py");
    CHECK(sync["args"]["python_stack"] ==
          json::array({"[1 library frame: torch]", "train.py:57 in train_step"}));
    CHECK(slice_named(trace, "off-CPU: blocked")["args"]["python_line"] == "train.py:40 in train");
}

TEST_CASE("an imported Ingero trace exports with the same structure", "[interop][perfetto]") {
    TempDir dir;
    const auto in_path = causeway::testing::build_ingero_fixture(dir);
    REQUIRE(interop::import_ingero(in_path, dir.file("imported.db"), {}));
    auto summary = export_file(dir.file("imported.db"), dir.file("imported.json"));
    REQUIRE(summary);
    auto trace = parse_and_validate(dir.file("imported.json"));
    CHECK(trace.slices.size() == 7 + 4);
    CHECK(counters_named(trace, "page allocations per bucket") == 2);
}

TEST_CASE("each shared Ingero recording, imported, exports with a valid structure",
          "[interop][perfetto][shared]") {
    for (const auto& in_path : causeway::testing::shared_ingero_dbs_or_skip()) {
        DYNAMIC_SECTION(std::filesystem::path(in_path).filename().string()) {
            TempDir dir;
            REQUIRE(interop::import_ingero(in_path, dir.file("imported.db"), {}));
            auto summary = export_file(dir.file("imported.db"), dir.file("out.json"));
            REQUIRE(summary);
            auto trace = parse_and_validate(dir.file("out.json"));
            CHECK(static_cast<std::int64_t>(trace.slices.size()) ==
                  summary->cuda_slices + summary->offcpu_slices);
        }
    }
}

TEST_CASE("an export never overwrites a file", "[interop][perfetto]") {
    TempDir dir;
    const auto db = write_fixture_trace(dir);
    const auto out = dir.file("taken.json");
    std::ofstream(out) << "keep me";
    auto summary = export_file(db, out);
    REQUIRE_FALSE(summary);
    CHECK_THAT(summary.error().message, Catch::Contains("remove it or choose another"));
    std::ifstream in(out);
    std::stringstream content;
    content << in.rdbuf();
    CHECK(content.str() == "keep me");
}
