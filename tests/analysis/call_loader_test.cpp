// cuda_call read in parallel rowid ranges: every row lands once, in file order, and the slices
// close up around rows that are skipped.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/analysis/fixture_builder.hpp"

using namespace causeway::analysis;
using namespace causeway::testing;

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
        fixture.call(unknown ? kUnknownThread : t, op::kLaunchKernel, i * kUs, 1 + i % 97);
        if (!unknown) {
            kept_ts.push_back(i * kUs);
        }
    }
    TraceModel model = fixture.load(kCalls * kUs);

    REQUIRE(model.calls.size() == kept_ts.size());
    REQUIRE(std::equal(kept_ts.begin(), kept_ts.end(), model.calls.ts_ns.begin()));
    for (std::size_t i = 0; i < model.calls.size(); ++i) {
        std::int64_t row = model.calls.ts_ns[i] / kUs;
        if (model.calls.dur_ns[i] != 1 + row % 97 || model.calls.thread_index[i] != 0) {
            FAIL("call " << i << " (row " << row << ") has the wrong duration or thread");
        }
    }
    std::string note = std::to_string(kCalls - static_cast<int>(kept_ts.size())) +
                       " CUDA calls name a thread that is not in the file; skipped";
    CHECK(std::find(model.notes.begin(), model.notes.end(), note) != model.notes.end());
}
