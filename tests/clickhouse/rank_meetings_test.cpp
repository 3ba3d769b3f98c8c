// The ranks of a job pushed as separate nodes, aligned by their collectives (fleet/rank_meetings):
// each node's clock recovered from when its ranks left the collectives, the late rank and what
// arriving on time would gain the job, and a rank that never arrived.
#include <catch2/catch.hpp>

#include <cstdlib>

#include "fleet/rank_meetings.hpp"

using namespace causeway::fleet;

namespace {

constexpr std::int64_t kMs = 1'000'000;
constexpr std::int64_t kUs = 1'000;
constexpr std::int64_t kStep = 10 * kMs;

// Three ranks, one per node, `steps` collectives a `kStep` apart. Every rank arrives at step k at
// k * kStep plus a few microseconds of its own; `late_rank` arrives `late_ns` after the others.
// All leave 2 ms after the last arrival, each a little later by its host's scheduling. Each node
// stamps these with its own clock: `offsets[r]` ahead of the true time.
std::vector<PushedRank> job(int steps, int late_rank, std::int64_t late_ns,
                            const std::vector<std::int64_t>& offsets) {
    std::vector<PushedRank> ranks;
    std::srand(7);
    for (int r = 0; r < 3; ++r) {
        PushedRank rank{.node = "node-" + std::to_string(r),
                        .communicator = {3, 0},
                        .rank = r,
                        .pid = 100 + r,
                        .arrival_ns = {},
                        .left_ns = {},
                        .last_call = "cudaStreamSynchronize",
                        .stuck_at = "train.py:" + std::to_string(40 + r) + " in load"};
        for (int k = 0; k < steps; ++k) {
            const std::int64_t base = 1'700'000'000'000'000'000 + k * kStep;
            const std::int64_t last = base + late_ns + 20 * kUs;
            const std::int64_t own = r == late_rank ? late_ns : 0;
            rank.arrival_ns.push_back(base + own + r * 5 * kUs + offsets[r]);
            rank.left_ns.push_back(last + 2 * kMs + (std::rand() % 50) * kUs + offsets[r]);
        }
        ranks.push_back(std::move(rank));
    }
    return ranks;
}

}  // namespace

TEST_CASE("ranks on nodes with different clocks: the clocks are recovered and rank 2 is late",
          "[fleet][unit]") {
    const auto meetings = meet_ranks(job(100, 2, 3 * kMs, {0, 37 * kMs, -20 * kMs}));
    REQUIRE(meetings.clocks.size() == 3);
    CHECK(meetings.clocks[0].reference);
    CHECK(meetings.clocks[0].offset_ns == 0);
    CHECK(std::llabs(meetings.clocks[1].offset_ns - 37 * kMs) < 50 * kUs);
    CHECK(std::llabs(meetings.clocks[2].offset_ns + 20 * kMs) < 50 * kUs);
    CHECK(meetings.clocks[1].samples == 100);
    REQUIRE(meetings.communicators.size() == 1);
    const JobCommunicator& communicator = meetings.communicators[0];
    CHECK(communicator.aligned == 100);
    CHECK(communicator.missing_number == 0);
    REQUIRE(communicator.late_rank);
    const LateRank& late = *communicator.late_rank;
    CHECK(late.node == "node-2");
    CHECK(late.rank == 2);
    CHECK(late.arrived_last_share == 1.0);
    // 3 ms after rank 1, give or take the clocks' estimate.
    CHECK(std::llabs(late.mean_late_ns - (3 * kMs - 5 * kUs)) < 60 * kUs);
    // The job gains its lateness at each collective: 99 steps of 10 ms, plus the first 3 ms.
    CHECK(late.span_ns > 99 * kStep);
    CHECK(late.job_speedup == Approx(static_cast<double>(late.span_ns) /
                                     static_cast<double>(late.span_ns - late.late_ns)));
    CHECK(late.job_speedup == Approx(1.43).epsilon(0.02));
    CHECK(communicator.ranks[0].waited_ns > 99 * 3 * kMs);
    CHECK(communicator.ranks[2].waited_ns == 0);
}

TEST_CASE("without the clock estimate the wrong rank would be late", "[fleet][unit]") {
    // Node 1's clock runs 37 ms ahead: taken as it is, rank 1 arrives last at every collective.
    auto ranks = job(50, 2, 3 * kMs, {0, 37 * kMs, 0});
    for (auto& rank : ranks) {
        std::fill(rank.left_ns.begin(), rank.left_ns.end(), -1);  // no synchronisation seen
    }
    const auto meetings = meet_ranks(ranks);
    CHECK(meetings.clocks[1].samples == 0);
    CHECK(meetings.clocks[1].offset_ns == 0);
    REQUIRE(meetings.communicators[0].late_rank);
    CHECK(meetings.communicators[0].late_rank->rank == 1);
}

TEST_CASE("balanced ranks name no late rank", "[fleet][unit]") {
    const auto meetings = meet_ranks(job(100, -1, 0, {0, 0, 0}));
    REQUIRE(meetings.communicators.size() == 1);
    CHECK_FALSE(meetings.communicators[0].late_rank);
}

TEST_CASE("a rank that stopped is absent from the next collective, with where it was",
          "[fleet][unit]") {
    auto ranks = job(30, -1, 0, {0, 0, 0});
    ranks[1].arrival_ns.resize(20);
    ranks[1].left_ns.resize(20);
    const auto meetings = meet_ranks(ranks);
    REQUIRE(meetings.communicators.size() == 1);
    const JobCommunicator& communicator = meetings.communicators[0];
    CHECK(communicator.aligned == 20);
    CHECK(communicator.missing_number == 21);
    REQUIRE(communicator.absent.size() == 1);
    CHECK(communicator.absent[0].collective == 21);
    CHECK(communicator.absent[0].node == "node-1");
    CHECK(communicator.absent[0].stuck_at == "train.py:41 in load");
}

TEST_CASE("a communicator missing a rank's node is not aligned", "[fleet][unit]") {
    auto ranks = job(10, 2, 3 * kMs, {0, 0, 0});
    ranks.erase(ranks.begin() + 1);
    const auto meetings = meet_ranks(ranks);
    CHECK(meetings.communicators.empty());
    CHECK(meetings.clocks.empty());
}
