// NCCL ranks of one trace aligned by their collectives: who arrived last and by how much, each
// rank's wait, and a collective one rank never issued.
#include <catch2/catch.hpp>

#include "analysis/measure/collective_meetings.hpp"
#include "analysis/measure/rank_alignment.hpp"
#include "report/ranks_text.hpp"
#include "tests/analysis/fixture_builder.hpp"

using namespace causeway;
using namespace causeway::testing;

namespace {

constexpr std::int64_t kAllReduce = 201;  // cuda_op.id of ncclAllReduce
constexpr std::int64_t kRanks = 3;
constexpr int kCollectives = 10;

struct Rank {
    std::int64_t thread_id = 0;
    std::int64_t comm_id = 0;
};

// Three rank processes with one communicator each. Each step rank 0 enqueues its all-reduce at
// 1 ms, rank 1 at 2 ms and rank 2 at 5 ms; rank 1 never issues the last one.
analysis::TraceModel three_ranks(FixtureBuilder& fixture) {
    std::vector<Rank> ranks;
    for (std::int64_t r = 0; r < kRanks; ++r) {
        const std::int64_t process = fixture.process(100 + r, "rank");
        Rank rank{.thread_id = fixture.thread(process, 100 + r, "rank")};
        auto comm = fixture.writer().add_nccl_comm(process, 0x1000 + r);
        REQUIRE(comm);
        REQUIRE(fixture.writer().set_nccl_comm_ranks(*comm, kRanks, r));
        rank.comm_id = *comm;
        ranks.push_back(rank);
    }
    constexpr std::int64_t kArrivalMs[] = {1, 2, 5};
    for (int k = 0; k < kCollectives; ++k) {
        for (std::int64_t r = 0; r < kRanks; ++r) {
            if (r == 1 && k == kCollectives - 1) {
                continue;
            }
            const std::int64_t ts = k * 10 * kMs + kArrivalMs[r] * kMs;
            const Rank& rank = ranks[static_cast<std::size_t>(r)];
            fixture.call(rank.thread_id, kAllReduce, ts, 10 * kUs, 4096);
            REQUIRE(fixture.writer().add_nccl_call({.thread_id = rank.thread_id,
                                                    .ts_ns = ts,
                                                    .op_id = kAllReduce,
                                                    .comm_id = rank.comm_id,
                                                    .count = 1024,
                                                    .datatype = 7,
                                                    .redop = 0}));
        }
    }
    return fixture.load(kCollectives * 10 * kMs);
}

}  // namespace

TEST_CASE("ranks are aligned by their collectives and the late one is named", "[analysis]") {
    FixtureBuilder fixture;
    const auto model = three_ranks(fixture);
    const auto communicators = analysis::align_ranks(model);
    REQUIRE(communicators.size() == 1);
    const analysis::CommunicatorRanks& c = communicators[0];
    CHECK(c.nranks == 3);
    CHECK(c.aligned == kCollectives - 1);
    REQUIRE(c.ranks.size() == 3);
    REQUIRE(c.latest() != nullptr);
    CHECK(c.latest()->rank == 2);
    CHECK(c.ranks[2].arrived_last == kCollectives - 1);
    CHECK(c.ranks[2].late_ns == (kCollectives - 1) * 3 * kMs);  // after rank 1, each time
    CHECK(c.ranks[0].waited_ns == (kCollectives - 1) * 4 * kMs);
    CHECK(c.ranks[1].waited_ns == (kCollectives - 1) * 3 * kMs);
    CHECK(c.ranks[2].waited_ns == 0);
    CHECK(c.ranks[0].pid == 100);

    REQUIRE(c.missing);
    CHECK(c.missing->number == kCollectives);
    REQUIRE(c.missing->absent.size() == 1);
    CHECK(c.missing->absent[0].rank == 1);
    CHECK(c.missing->absent[0].last_call == "ncclAllReduce");
    CHECK(c.missing->absent[0].last_call_ns == 82 * kMs);
    CHECK(report::latest_rank_text(c) ==
          "rank 2 (pid 102) arrived last at 100% of 9 collectives, 3.00 ms late on average");
    CHECK(report::missing_collective_text(c) ==
          "rank 1 never issued collective #10, which ranks 0 and 2 did: it hung before it, or "
          "the recording ended first; rank 1 (pid 101) last called ncclAllReduce at 82.0 ms");
}

TEST_CASE("the ranks' device queues meet in the collectives every rank reached", "[analysis]") {
    FixtureBuilder fixture;
    const auto model = three_ranks(fixture);
    const auto communicators = analysis::align_ranks(model);
    // Each rank's queue: one period a step, from the step's start to a drain at 9 ms.
    std::vector<analysis::DeviceQueue> queues;
    for (const analysis::RankTiming& rank : communicators.at(0).ranks) {
        analysis::DeviceQueue queue;
        queue.thread_index =
            model.nccl_calls[static_cast<std::size_t>(rank.calls.at(0))].thread_index;
        for (int k = 0; k < kCollectives; ++k) {
            analysis::DrainPeriod period;
            period.start_ns = k * 10 * kMs;
            period.drain_entry_ns = period.drain_ns = k * 10 * kMs + 9 * kMs;
            period.device_ns = 6 * kMs;
            queue.periods.push_back(period);
            queue.bounds.push_back({}, period.drain_ns);  // the drain says nothing of its work
        }
        queues.push_back(queue);
    }
    analysis::mark_collectives(model, communicators, queues);
    for (int k = 0; k < kCollectives - 1; ++k) {
        INFO("collective " << k);
        // Rank 0 arrived at 1 ms and waited 4 ms for rank 2, rank 1 waited 3 ms, rank 2 none.
        CHECK(queues[0].meeting_of(k).peer_wait_ns == 4 * kMs);
        CHECK(queues[1].meeting_of(k).peer_wait_ns == 3 * kMs);
        CHECK(queues[2].meeting_of(k).peer_wait_ns == 0);
        CHECK(queues[0].meeting_of(k).meeting == k);
        CHECK(queues[2].meeting_of(k).meeting == k);
        CHECK(queues[2].meeting_of(k).arrival_ns == k * 10 * kMs + 5 * kMs);
    }
    // The collective rank 1 never issued is no meeting.
    CHECK(queues[0].meeting_of(kCollectives - 1).meeting == -1);
    CHECK(queues[0].meeting_of(kCollectives - 1).peer_wait_ns == 0);
    CHECK(queues[0].device_busy_ns() == (kCollectives - 1) * 2 * kMs + 6 * kMs);
}

TEST_CASE("communicators without every rank in the trace are not aligned", "[analysis]") {
    FixtureBuilder fixture;
    const std::int64_t process = fixture.process(100, "rank");
    const std::int64_t thread = fixture.thread(process, 100, "rank");
    auto comm = fixture.writer().add_nccl_comm(process, 0x1000);
    REQUIRE(comm);
    REQUIRE(fixture.writer().set_nccl_comm_ranks(*comm, 4, 0));  // ranks 1-3 on other hosts
    fixture.call(thread, kAllReduce, kMs, 10 * kUs, 4096);
    REQUIRE(fixture.writer().add_nccl_call(
        {.thread_id = thread, .ts_ns = kMs, .op_id = kAllReduce, .comm_id = *comm}));
    CHECK(analysis::align_ranks(fixture.load(10 * kMs)).empty());
}
