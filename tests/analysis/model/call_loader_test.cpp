// cuda_call read in parallel parts: every row lands once, in file order, the slices close up
// around rows that are skipped (values kept aside from the narrow columns included), and the page
// reader and SQL agree.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "analysis/model/call_loader.hpp"
#include "tests/analysis/fixture_builder.hpp"
#include "tests/support/temp_dir.hpp"
#include "tracedb/writer.hpp"

using namespace causeway::analysis;
using namespace causeway::testing;

namespace {

std::int64_t bytes_of(std::int64_t row) {
    return row % 1'000 == 9 ? (std::int64_t{3} << 30) + row : row;
}

}  // namespace

TEST_CASE("a large cuda_call is read in parallel parts, in order, around skipped rows",
          "[analysis][loader]") {
    FixtureBuilder fixture;
    auto p = fixture.process(100, "python");
    auto t = fixture.thread(p, 100, "python");
    constexpr int kCalls = 600'000;  // above the size the loader splits into parts
    constexpr std::int64_t kUnknownThread = 999;
    std::vector<std::int64_t> kept_ts;
    for (int i = 0; i < kCalls; ++i) {
        bool unknown = i % 40'000 == 7;  // in every part, near each slice's start
        // Some byte counts beyond 32 bits: kept aside by the part that reads them.
        fixture.call(unknown ? kUnknownThread : t, op::kLaunchKernel, i * kUs, 1 + i % 97,
                     bytes_of(i));
        if (!unknown) {
            kept_ts.push_back(i * kUs);
        }
    }
    TraceModel model = fixture.load(kCalls * kUs);

    REQUIRE(model.calls.size() == kept_ts.size());
    for (std::size_t i = 0; i < model.calls.size(); ++i) {
        REQUIRE(model.calls.ts_ns[i] == kept_ts[i]);
        std::int64_t row = model.calls.ts_ns[i] / kUs;
        if (model.calls.dur_ns[i] != 1 + row % 97 || model.calls.thread_index[i] != 0 ||
            model.calls.bytes[i] != bytes_of(row)) {
            FAIL("call " << i << " (row " << row << ") has the wrong duration, thread or bytes");
        }
    }
    // Left out, and said so as an error with its count: never a silent note.
    const auto row = std::find_if(
        model.data_quality.begin(), model.data_quality.end(), [](const DataQualityItem& item) {
            return item.is(causeway::tracedb::DataQualityCounter::kOrphanCudaCalls);
        });
    REQUIRE(row != model.data_quality.end());
    CHECK(row->value == kCalls - static_cast<int>(kept_ts.size()));
    CHECK(row->severity == "error");
}

TEST_CASE("the page reader and SQL load the same calls", "[analysis][loader]") {
    // The same rows loaded twice: from the WAL file a recording leaves (read with SQL), then
    // from the finished file (read from its b-tree pages).
    causeway::testing::TempDir dir;
    auto path = dir.file("run.db");
    auto writer = causeway::tracedb::TraceWriter::create(path, {.source = "test"});
    REQUIRE(writer);
    constexpr int kCalls = 600'000;
    for (int i = 0; i < kCalls; ++i) {
        causeway::tracedb::CudaCallRecord c{
            .thread_id = i % 11 == 3 ? 99 : 1 + i % 2,
            .op_id = i % 2 == 0 ? op::kMemcpyAsync : op::kLaunchKernel,
            .ts_ns = i * kUs,
            .dur_ns = 1 + i % 1'000};
        if (i % 2 == 0) {
            c.bytes = i * 64;
            c.host_pinned = i % 4 == 0;
        }
        c.ret = i % 1'000 == 0 ? 2 : i % 777 == 1 ? 100'000 : 0;  // some beyond 16 bits
        if (i % 3 == 0) {
            c.stack_id = i % 301 == 0 ? 70'000 : 1 + i % 5;  // some beyond 16 bits
        }
        REQUIRE(writer->add_cuda_call(c));
    }
    REQUIRE(writer->commit());
    const IdLookup thread_of_id({{1, 0}, {2, 1}});
    const IdLookup op_of_id({{op::kMemcpyAsync, 0}, {op::kLaunchKernel, 1}});
    const PlausibleValues plausible(std::nullopt);
    auto with_sql = load_calls(path, thread_of_id, op_of_id, plausible);
    REQUIRE(writer->finish(kCalls * kUs));
    auto from_pages = load_calls(path, thread_of_id, op_of_id, plausible);
    REQUIRE(with_sql);
    REQUIRE(from_pages);
    CHECK(with_sql->read_with_sql_because);
    CHECK_FALSE(from_pages->read_with_sql_because);

    const LoadedCallColumns& a = with_sql->calls;
    const LoadedCallColumns& b = from_pages->calls;
    REQUIRE(a.size() == b.size());
    CHECK(a.size() < static_cast<std::size_t>(kCalls));  // thread 99 is skipped
    CHECK(with_sql->unknown_thread == from_pages->unknown_thread);
    CHECK(with_sql->last_end_ns == from_pages->last_end_ns);
    CHECK(a.thread_index == b.thread_index);
    CHECK(a.op_index == b.op_index);
    CHECK(std::equal(a.ts_ns.begin(), a.ts_ns.end(), b.ts_ns.begin()));
    CHECK(a.dur_ns == b.dur_ns);
    CHECK(a.bytes == b.bytes);
    CHECK(a.host_pinned == b.host_pinned);
    CHECK(a.ret == b.ret);
    CHECK(a.stack_id == b.stack_id);
    std::size_t without_stack = 0;
    std::size_t beyond_16_bits = 0;
    for (std::size_t i = 0; i < b.size(); ++i) {
        without_stack += b.stack_id[i] == -1 ? 1 : 0;
        beyond_16_bits += b.stack_id[i] == 70'000 ? 1 : 0;
    }
    CHECK(without_stack > 0);
    CHECK(beyond_16_bits > 0);
}
