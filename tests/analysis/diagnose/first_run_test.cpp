// What a new user's first recordings show: competitors only where they took a CPU, a symbol a
// minimal runtime does not export as info, and a command that never ran named as such instead
// of a CUDA library blamed.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "analysis/diagnose/diagnosis.hpp"
#include "analysis/measure/trace_stats.hpp"
#include "report/verdict_text.hpp"
#include "tests/analysis/fixture_builder.hpp"

using namespace causeway::analysis;
using namespace causeway::testing;

namespace {

const DataQualityItem* find_item(const DataQualityReport& report, const std::string& counter) {
    auto it = std::find_if(report.items.begin(), report.items.end(),
                           [&](const DataQualityItem& item) { return item.counter == counter; });
    return it == report.items.end() ? nullptr : &*it;
}

}  // namespace

TEST_CASE("a process outside the tree is a competitor only where it took a CPU",
          "[analysis][breakdown]") {
    FixtureBuilder fixture;
    auto p = fixture.process(100, "python");
    auto t = fixture.thread(p, 100, "python");
    // Ran after the traced thread went to sleep: it took nothing.
    auto idle = fixture.process(14, "ksoftirqd/0", std::nullopt, false);
    auto idle_thread = fixture.thread(idle, 14, "ksoftirqd/0");
    // Preempted the traced thread: it took its CPU.
    auto hog = fixture.process(500, "hog", std::nullopt, false);
    auto hog_thread = fixture.thread(hog, 500, "hog");
    for (int i = 0; i < 100; ++i) {
        fixture.call(t, op::kStreamSynchronize, i * kMs, 300 * kUs);
        REQUIRE(fixture.writer().add_offcpu({.thread_id = t,
                                             .ts_ns = i * kMs + 400 * kUs,
                                             .dur_ns = 100 * kUs,
                                             .reason = causeway::tracedb::OffCpuReason::kBlocked,
                                             .next_thread_id = idle_thread}));
    }
    fixture.preempted(t, 50 * kMs + 600 * kUs, 200 * kUs, hog_thread);
    TraceModel model = fixture.load(100 * kMs);

    Diagnosis d = diagnose(model, {});
    std::vector<std::string> comms;
    for (const auto& row : d.processes.processes) {
        comms.push_back(row.comm);
    }
    CHECK(comms == std::vector<std::string>{"python", "hog"});
    CHECK(d.processes.total_processes == 2);
    CHECK(compute_stats(model, {}).host.competitor_processes == 1);
}

TEST_CASE("a symbol a library does not export is info, a failed attach an error",
          "[analysis][quality]") {
    FixtureBuilder fixture;
    auto& w = fixture.writer();
    const std::string runtime = "/opt/minimal/libcudart.so.13";
    for (const char* kind : {"uprobe", "uretprobe"}) {
        REQUIRE(w.put_probe({runtime, "cudaHostAlloc", kind, true, false,
                             std::string(causeway::tracedb::kSymbolNotExported)}));
        REQUIRE(w.put_probe(
            {runtime, "cudaMemcpy", kind, true, false, std::string("Operation not permitted")}));
        REQUIRE(w.put_probe({runtime, "cudaMalloc", kind, true, true, std::nullopt}));
    }
    TraceModel model = fixture.load(1 * kMs);
    DataQualityReport quality = data_quality_report(model);

    const DataQualityItem* absent = find_item(quality, "symbols_not_exported");
    REQUIRE(absent);
    CHECK(absent->severity == "info");
    CHECK(absent->value == 1);
    CHECK_THAT(absent->description, Catch::Contains("cudaHostAlloc"));
    int errors = 0;
    for (const auto& item : quality.items) {
        if (item.counter == "required_probe_missing") {
            ++errors;
            CHECK_THAT(item.description, Catch::StartsWith("cudaMemcpy"));
        }
    }
    CHECK(errors == 2);  // entry and return of the one symbol that failed
}

TEST_CASE("a command that never ran is named, not a CUDA library", "[analysis][verdict]") {
    SECTION("a trace of an older collector: the forked process never exec'd") {
        FixtureBuilder fixture;
        fixture.process(4122, "causeway-collec");  // the fork that was to become the command
        TraceModel model =
            fixture.load_edited(1000 * kMs, "UPDATE session SET command_line = '/no/such/cmd'");
        Diagnosis d = diagnose(model, {});
        CHECK(d.verdict.verdict_class == VerdictClass::kInsufficientData);
        CHECK(d.verdict.reason == VerdictReason::kCommandNotRun);
        CHECK_THAT(causeway::report::verdict_summary(d), Catch::Contains("/no/such/cmd") &&
                                                             Catch::Contains("never ran") &&
                                                             !Catch::Contains("CUDA library"));
        const DataQualityItem* item = find_item(d.data_quality, "command_not_started");
        REQUIRE(item);
        CHECK(item->severity == "error");
    }
    SECTION("processes given with --pid are not a command that never ran") {
        FixtureBuilder fixture;
        fixture.process(4122, "python");
        TraceModel model =
            fixture.load_edited(1000 * kMs, "UPDATE session SET command_line = 'pid 4122'");
        Diagnosis d = diagnose(model, {});
        CHECK_FALSE(find_item(d.data_quality, "command_not_started"));
        CHECK(d.verdict.reason != VerdictReason::kCommandNotRun);
        CHECK_THAT(causeway::report::verdict_summary(d), !Catch::Contains("never ran"));
    }
}
