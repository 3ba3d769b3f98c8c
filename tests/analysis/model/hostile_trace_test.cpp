// Traces that the collector never writes but that a user may hand over: a cuda_call rebuilt with
// ALTER TABLE ... ADD COLUMN and a DEFAULT, rowids at the ends of int64, damaged pages, values no
// recording can hold, names of megabytes. Each gives the answer SQL gives, or says in a
// data-quality row what it left out and why.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <limits>
#include <string>

#include "analysis/diagnose/diagnosis.hpp"
#include "analysis/measure/timeline.hpp"
#include "analysis/measure/trace_stats.hpp"
#include "analysis/model/text_caps.hpp"
#include "tests/analysis/fixture_builder.hpp"

using namespace causeway::analysis;
using namespace causeway::testing;

namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();

// A training loop of `calls` launches and synchronisations on one thread, 1 ms apart.
void training_loop(FixtureBuilder& fixture, int calls) {
    auto p = fixture.process(100, "python");
    auto t = fixture.thread(p, 100, "python");
    for (int i = 0; i < calls; ++i) {
        fixture.call(t, i % 2 == 0 ? op::kLaunchKernel : op::kStreamSynchronize, i * kMs,
                     (i % 2 == 0 ? 20 : 500) * kUs);
        if (i % 10 == 0) {
            fixture.preempted(t, i * kMs + 600 * kUs, 100 * kUs, std::nullopt);
        }
    }
}

// cuda_call rebuilt without `column`, then given it back with ALTER TABLE ... ADD COLUMN
// `declaration` and VACUUMed: the old rows stay short, and SQLite reads the DEFAULT for them.
std::string rebuild_with_added_column(const std::string& column, const std::string& declaration) {
    std::string kept;
    for (const char* name : {"thread_id", "op_id", "ts_ns", "dur_ns", "bytes", "copy_kind",
                             "host_pinned", "stream_id", "ret", "stack_id"}) {
        if (name != column) {
            kept += std::string(kept.empty() ? "" : ", ") + name;
        }
    }
    return "CREATE TABLE old_call AS SELECT rowid AS rid, " + kept +
           " FROM cuda_call; DROP TABLE cuda_call; CREATE TABLE cuda_call (" + kept +
           "); INSERT INTO cuda_call (rowid, " + kept + ") SELECT rid, " + kept +
           " FROM old_call; DROP TABLE old_call; ALTER TABLE cuda_call ADD COLUMN " + column + " " +
           declaration + "; VACUUM;";
}

const DataQualityItem* find_item(const DataQualityReport& report, const std::string& counter) {
    auto it = std::find_if(report.items.begin(), report.items.end(),
                           [&](const DataQualityItem& item) { return item.counter == counter; });
    return it == report.items.end() ? nullptr : &*it;
}

// Changes one byte of the first leaf page of cuda_call: its count of fragmented free bytes,
// which SQLite does not need to read rows but quick_check checks.
void damage_fragment_count(const std::string& path) {
    std::int64_t page = 0, page_size = 0;
    {
        sqlite3* raw = nullptr;
        REQUIRE(sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
        causeway::tracedb::Database db(raw);
        page = db.query_int64(
                     "SELECT min(pageno) FROM dbstat WHERE name = 'cuda_call' AND "
                     "pagetype = 'leaf'")
                   .value();
        page_size = db.query_int64("PRAGMA page_size").value();
    }
    std::fstream file(path, std::ios::binary | std::ios::in | std::ios::out);
    file.seekp((page - 1) * page_size + 7);
    file.put(static_cast<char>(9));
}

// Overwrites the header of the offcpu_by_thread index's root page: every read through the index
// fails as malformed, while the table itself reads as before.
void damage_offcpu_index(const std::string& path) {
    std::int64_t page = 0, page_size = 0;
    {
        sqlite3* raw = nullptr;
        REQUIRE(sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
        causeway::tracedb::Database db(raw);
        page = db.query_int64("SELECT rootpage FROM sqlite_master WHERE name = 'offcpu_by_thread'")
                   .value();
        page_size = db.query_int64("PRAGMA page_size").value();
    }
    std::fstream file(path, std::ios::binary | std::ios::in | std::ios::out);
    file.seekp((page - 1) * page_size);
    file << std::string(64, '\xff');
}

bool any_negative(const Distribution& d) {
    return d.total_ns < 0 || d.mean_ns < 0 || d.max_ns < 0;
}

}  // namespace

TEST_CASE("a column added with a DEFAULT reads as SQL reads it", "[analysis][loader]") {
    SECTION("ret INTEGER NOT NULL DEFAULT 0: no call returned an error") {
        FixtureBuilder fixture;
        training_loop(fixture, 6000);
        TraceModel model = fixture.load_edited(
            6 * 1000 * kMs, rebuild_with_added_column("ret", "INTEGER NOT NULL DEFAULT 0"));
        TraceStats stats = compute_stats(model, {});
        CHECK(stats.calls == 6000);
        CHECK(stats.error_calls == 0);
        CHECK_FALSE(find_item(stats.data_quality, "cuda_call_read_with_sql"));
    }
    SECTION("stack_id INTEGER DEFAULT 7: every call has stack 7") {
        FixtureBuilder fixture;
        training_loop(fixture, 6000);
        // With the stack row it names (a call naming a missing stack reads as without one).
        TraceModel model = fixture.load_edited(
            6 * 1000 * kMs,
            rebuild_with_added_column("stack_id", "DEFAULT 7") +
                "; INSERT INTO stack (id, process_id) SELECT 7, min(id) FROM process");
        REQUIRE(model.calls.size() == 6000);
        for (std::size_t i = 0; i < model.calls.size(); ++i) {
            CHECK(model.calls.stack_id[i] == 7);
        }
    }
}

TEST_CASE("rowids at the ends of int64 are loaded, columns sized by row count",
          "[analysis][loader]") {
    const std::string extremes =
        "UPDATE cuda_call SET rowid = 9223372036854775807 WHERE rowid = (SELECT max(rowid) FROM "
        "cuda_call); UPDATE cuda_call SET rowid = -9223372036854775808 WHERE rowid = (SELECT "
        "min(rowid) FROM cuda_call);";
    for (const char* journal : {"DELETE", "WAL"}) {  // the page reader, then SQL
        INFO(journal);
        FixtureBuilder fixture;
        training_loop(fixture, 3000);
        TraceModel model = fixture.load_edited(3 * 1000 * kMs,
                                               extremes + "PRAGMA journal_mode = " + journal + ";");
        CHECK(model.calls.size() == 3000);
        CHECK(model.calls.ts_ns[0] == 0);
        CHECK(model.calls.ts_ns[model.calls.size() - 1] == 2999 * kMs);
    }
}

TEST_CASE("every read with SQL instead of the pages is a data-quality row", "[analysis][loader]") {
    SECTION("a WAL file: info, the same rows read more slowly") {
        FixtureBuilder fixture;
        training_loop(fixture, 200);
        TraceModel model = fixture.load_edited(200 * kMs, "PRAGMA journal_mode = WAL;");
        CHECK(model.calls.size() == 200);
        Diagnosis d = diagnose(model, {});
        const DataQualityItem* item = find_item(d.data_quality, "cuda_call_read_with_sql");
        REQUIRE(item);
        CHECK(item->severity == "info");
        CHECK_THAT(item->description, Catch::Contains("WAL"));
        CHECK(find_item(compute_stats(model, {}).data_quality, "cuda_call_read_with_sql"));
    }
    SECTION("a damaged file: an error that names the damage, in stats and explain") {
        FixtureBuilder fixture;
        training_loop(fixture, 3000);
        fixture.load(3 * 1000 * kMs);
        damage_fragment_count(fixture.path());
        TraceModel model = fixture.load_file();
        CHECK(model.calls.size() == 3000);  // what SQL still reads
        for (const DataQualityReport& report :
             {diagnose(model, {}).data_quality, compute_stats(model, {}).data_quality}) {
            const DataQualityItem* item = find_item(report, "damaged_file");
            REQUIRE(item);
            CHECK(item->severity == "error");
            CHECK_THAT(item->description,
                       Catch::Contains("is damaged") && Catch::Contains("do not add up"));
        }
    }
}

TEST_CASE("impossible values are left out of every number and counted", "[analysis][values]") {
    FixtureBuilder fixture;
    training_loop(fixture, 1000);
    auto p = fixture.process(300, "other");
    auto t = fixture.thread(p, 300, "other");
    fixture.call(t, op::kLaunchKernel, 10 * kMs, kMax);         // ends 292 years later
    fixture.call(t, op::kLaunchKernel, kMin, 5 * kUs);          // starts before the epoch
    fixture.call(t, op::kLaunchKernel, 20 * kMs, -5);           // runs backwards
    fixture.call(t, op::kMemcpy, 30 * kMs, 10 * kUs, kMax, 0);  // kept, size unknown
    causeway::tracedb::CudaCallRecord odd{
        .thread_id = t, .op_id = op::kMemcpy, .ts_ns = 40 * kMs, .dur_ns = 5 * kUs};
    odd.host_pinned = 256;     // pinned, however it was written
    odd.stack_id = 1LL << 40;  // no stack id this large: unknown
    odd.ret = 1LL << 40;       // an error, as the largest 32-bit code
    REQUIRE(fixture.writer().add_cuda_call(odd));
    fixture.preempted(t, 40 * kMs, kMax, std::nullopt);
    REQUIRE(fixture.writer().add_page_alloc(
        {.process_id = p, .bucket_ns = 0, .count = 1, .bytes = kMax}));
    TraceModel model = fixture.load(1000 * kMs);

    REQUIRE(model.calls.size() == 1002);
    CHECK(model.calls.host_pinned[model.calls.size() - 1] == 1);
    CHECK(model.calls.stack_id[model.calls.size() - 1] == -1);
    CHECK(model.calls.ret[model.calls.size() - 1] == std::numeric_limits<std::int32_t>::max());
    CHECK(model.end_ns() == 1000 * kMs);
    Diagnosis d = diagnose(model, {});
    TraceStats stats = compute_stats(model, {});
    for (const DataQualityReport* report : {&d.data_quality, &stats.data_quality}) {
        const DataQualityItem* calls = find_item(*report, "impossible_cuda_calls");
        REQUIRE(calls);
        CHECK(calls->value == 3);
        CHECK(calls->severity == "error");
        CHECK_THAT(calls->description, Catch::Contains("9223372036854775807"));
        const DataQualityItem* values = find_item(*report, "impossible_cuda_call_values");
        REQUIRE(values);
        CHECK(values->value == 2);
        REQUIRE(find_item(*report, "impossible_offcpu_intervals"));
        REQUIRE(find_item(*report, "impossible_page_alloc_buckets"));
    }
    for (const OpStats& op : stats.ops) {
        INFO(op.op);
        CHECK_FALSE(any_negative(op.dur));
        CHECK(op.dur.max_ns <= 1000 * kMs);
        CHECK(op.wall_share <= 1.0);
        CHECK(op.bytes >= 0);
    }
    CHECK(stats.host.page_alloc_bytes == 0);
    REQUIRE(d.gpu_threads.size() == 1);  // the loop is the training thread's, not "0 ns"
    CHECK(d.gpu_threads[0].tid == 100);
    CHECK(d.range.dur_ns() == 1000 * kMs);
}

TEST_CASE("sums of many large values saturate instead of wrapping", "[analysis][values]") {
    // 2000 calls of 60 days each overlap on one thread in a 61-day session: each value is
    // possible, their sum (120,000 days) is not an int64 of nanoseconds.
    constexpr std::int64_t kDay = 24 * 3600 * 1000 * kMs;
    FixtureBuilder fixture;
    auto p = fixture.process(100, "python");
    auto t = fixture.thread(p, 100, "python");
    for (int i = 0; i < 2000; ++i) {
        fixture.call(t, op::kStreamSynchronize, i * kMs, 60 * kDay, 1LL << 49);
        fixture.call(t, op::kMemcpy, i * kMs, 60 * kDay, 1LL << 49, 0);
        fixture.preempted(t, i * kMs, 60 * kDay, std::nullopt);
    }
    TraceModel model = fixture.load(61 * kDay);
    REQUIRE(model.calls.size() == 4000);
    TraceStats stats = compute_stats(model, {});
    for (const OpStats& op : stats.ops) {
        CHECK(op.dur.total_ns == kMax);
        CHECK(op.dur.mean_ns == 60 * kDay);
        CHECK(op.bytes > 0);
    }
    Diagnosis d = diagnose(model, {});
    for (const auto& row : d.processes.processes) {
        CHECK(row.cuda_ns > 0);
        CHECK(row.sched.preempted_ns >= 0);
    }
    for (const auto& chain : d.chains) {
        CHECK(chain.time_lost_ns >= 0);
    }
    Timeline timeline = compute_timeline(model, {});
    for (const auto& bucket : timeline.buckets) {
        CHECK(bucket.preempted_ns >= 0);
    }
}

TEST_CASE("names of megabytes are cut where the trace is read", "[analysis][values]") {
    FixtureBuilder fixture;
    std::string huge(10 << 20, 'A');
    auto p = fixture.process(100, huge);
    fixture.thread(p, 100, huge + "\xc3\xa9");
    TraceModel model = fixture.load(1 * kMs);
    const std::string& comm = model.processes.at(0).comm;
    CHECK(comm.size() < kNameBytes + 40);
    CHECK_THAT(comm, Catch::EndsWith(" [... cut, 10485760 bytes]"));
    CHECK_THAT(model.threads.at(0).comm, Catch::EndsWith(" [... cut, 10485762 bytes]"));
    CHECK(capped("ab\xc3\xa9", 3) == "ab [... cut, 4 bytes]");  // not inside the é
}

TEST_CASE("an imported bucket that ends after the session is kept", "[analysis][values]") {
    // Ingero's minute buckets, clipped to the trace's start, may run past its end.
    FixtureBuilder fixture(2, "import:ingero");
    REQUIRE(fixture.writer().add_event_count({.bucket_ns = 0,
                                              .bucket_dur_ns = 20'000 * kMs,
                                              .event = "sched_switch",
                                              .count = 45,
                                              .stored = 4}));
    TraceModel model = fixture.load(10'000 * kMs);
    CHECK(model.event_counts.size() == 1);
    CHECK_FALSE(find_item(data_quality_report(model), "impossible_event_counts"));
}

TEST_CASE("a damaged off-CPU index loses no interval", "[analysis][loader]") {
    // The loader counts each thread's intervals through the index only to size its lists.
    FixtureBuilder fixture;
    training_loop(fixture, 3000);  // preempted once every 10 calls
    fixture.load(3 * 1000 * kMs);
    damage_offcpu_index(fixture.path());
    TraceModel model = fixture.load_file();
    std::size_t intervals = 0;
    for (const auto& list : model.offcpu_by_thread) {
        intervals += list.size();
    }
    CHECK(intervals == 300);
    CHECK(model.calls.size() == 3000);
}

TEST_CASE("an off-CPU table the page reader stops in is read whole with SQL",
          "[analysis][loader]") {
    // The first interval is impossible (its run-queue wait outlasts it) and the last holds a
    // text the page reader does not decode: it has read every leaf but the last when it stops.
    // What it took so far is dropped, so SQL's reading counts each interval once.
    FixtureBuilder fixture;
    training_loop(fixture, 3000);  // preempted once every 10 calls
    TraceModel model = fixture.load_edited(
        3 * 1000 * kMs,
        "UPDATE offcpu SET runq_wait_ns = dur_ns + 1 WHERE rowid = (SELECT min(rowid) FROM "
        "offcpu); UPDATE offcpu SET iowait = 'not a number' WHERE rowid = (SELECT max(rowid) "
        "FROM offcpu);");
    std::vector<std::int64_t> starts;
    for (const auto& list : model.offcpu_by_thread) {
        for (const OffCpuInterval& interval : list) {
            starts.push_back(interval.ts_ns);
        }
    }
    CHECK(starts.size() == 299);
    std::sort(starts.begin(), starts.end());
    CHECK(std::adjacent_find(starts.begin(), starts.end()) == starts.end());
    const DataQualityItem* impossible =
        find_item(data_quality_report(model), "impossible_offcpu_intervals");
    REQUIRE(impossible);
    CHECK(impossible->value == 1);
}
