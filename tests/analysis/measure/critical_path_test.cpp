// The critical-path replay on hand-built device queues: a host delay costs what the device waited
// for it, not its length.
#include "analysis/measure/critical_path.hpp"

#include <catch2/catch.hpp>

#include "analysis/measure/collective_meetings.hpp"

using causeway::analysis::CriticalPath;
using causeway::analysis::DeviceQueue;
using causeway::analysis::DrainPeriod;
using causeway::analysis::HostTimeRemoval;
using causeway::analysis::IntervalList;
using causeway::analysis::normalise_intervals;
using causeway::analysis::on_time_removal;
using causeway::analysis::WeightedInterval;

namespace {

constexpr std::int64_t kMs = 1'000'000;

// One period of 10 ms: host work until `enqueue_ms`, one enqueue then, device work `device_ms`
// measured by a drain entered at `drain_entry_ms` that waited until 10 ms.
DeviceQueue one_period(std::int64_t enqueue_ms, std::int64_t device_ms,
                       std::int64_t drain_entry_ms) {
    DeviceQueue queue;
    queue.enqueue_ns = {enqueue_ms * kMs};
    DrainPeriod p;
    p.start_ns = 0;
    p.drain_entry_ns = drain_entry_ms * kMs;
    p.drain_ns = 10 * kMs;
    p.first_enqueue = 0;
    p.enqueues = 1;
    p.waited = true;
    p.device_ns = p.device_low_ns = p.device_high_ns = device_ms * kMs;
    queue.periods = {p};
    queue.waited_periods = 1;
    return queue;
}

// The prediction of removing `removal` from `queues`.
causeway::analysis::SpeedupPrediction predict(const std::vector<DeviceQueue>& queues,
                                              const HostTimeRemoval& removal) {
    return CriticalPath(queues).predict(removal);
}

HostTimeRemoval removing(std::int64_t from_ms, std::int64_t to_ms) {
    return {.per_queue = {{{from_ms * kMs, to_ms * kMs, 1.0}}}, .device_scale = 1.0};
}

}  // namespace

TEST_CASE("a host delay before the enqueue, with the queue empty, costs all of it") {
    // 4 ms of host time, then 6 ms of device work: removing 2 ms of the host's time saves 2 ms.
    const auto prediction = predict({one_period(4, 6, 5)}, removing(1, 3));
    CHECK(prediction.loop_ns == 10 * kMs);
    CHECK(prediction.saved_ns == 2 * kMs);
    CHECK(prediction.speedup == Approx(10.0 / 8.0));
}

TEST_CASE("a host delay hidden behind queued device work costs nothing") {
    // Enqueued at 1 ms, 9 ms of device work; the host's 2 ms delay at 5-7 ms falls while the
    // device is busy.
    const auto prediction = predict({one_period(1, 9, 8)}, removing(5, 7));
    CHECK(prediction.saved_ns == 0);
    CHECK(prediction.speedup == 1.0);
}

TEST_CASE("a device twice as fast saves half its exposed work") {
    HostTimeRemoval faster{.per_queue = {}, .device_scale = 0.5};
    const auto prediction = predict({one_period(4, 6, 5)}, faster);
    CHECK(prediction.saved_ns == 3 * kMs);
    CHECK(prediction.speedup == Approx(10.0 / 7.0));
}

TEST_CASE("a delay partly hidden costs only what the device then waited") {
    // Enqueued at 1 ms with 5 ms of work (done at 6 ms); the host is delayed 4-9 ms, then spends
    // 1 ms in a drain that found the device done. Without the delay it reaches the drain at 4 ms,
    // waits for the device until 6 ms and spends its 1 ms: the period ends at 7 ms instead of 10,
    // saving 3 ms of the 5.
    DeviceQueue queue = one_period(1, 5, 9);
    DrainPeriod estimated = queue.periods[0];
    estimated.waited = false;
    queue.periods.set(0, estimated);
    const auto prediction = predict({queue}, removing(4, 9));
    CHECK(prediction.saved_ns == 3 * kMs);
}

TEST_CASE("overlapping shares of one interval add up, to at most all of it") {
    IntervalList intervals = {{10, 20, 0.5}, {10, 20, 0.25}, {15, 30, 1.0}, {40, 40, 1.0}};
    normalise_intervals(intervals);
    REQUIRE(intervals.size() == 2);
    CHECK(intervals[0].start_ns == 10);
    CHECK(intervals[0].end_ns == 15);
    CHECK(intervals[0].weight == Approx(0.75));
    CHECK(intervals[1].start_ns == 15);
    CHECK(intervals[1].end_ns == 30);
    CHECK(intervals[1].weight == 1.0);
}

TEST_CASE("intervals in order keep their weights exactly, and merge where they touch alike") {
    // Each list as cause_time builds it (in order, disjoint) and the same list shuffled, which
    // takes the sweep: both give the same intervals, with weights that are not rounded sums.
    const IntervalList in_order = {
        {0, 10, 0.1}, {10, 20, 0.2}, {20, 30, 0.2}, {30, 40, 0.1}, {50, 60, 0.3}};
    IntervalList fast = in_order;
    normalise_intervals(fast);
    IntervalList swept = {in_order[3], in_order[0], in_order[4], in_order[2], in_order[1]};
    normalise_intervals(swept);
    for (const IntervalList* list : {&fast, &swept}) {
        REQUIRE(list->size() == 4);
        CHECK((*list)[0].weight == 0.1);
        CHECK((*list)[1].start_ns == 10);
        CHECK((*list)[1].end_ns == 30);
        CHECK((*list)[1].weight == 0.2);
        CHECK((*list)[2].weight == 0.1);
        CHECK((*list)[3].start_ns == 50);
        CHECK((*list)[3].weight == 0.3);
    }
}

namespace {

// Two ranks that meet in one collective, a step of 10 ms: the waiting rank enqueues at 1 ms, with
// 8 ms of device work of which 3 ms are its wait for the other; the late rank enqueues at 4 ms
// (3 ms of host work more), with 6 ms of its own device work. Both drains return at 10 ms.
std::vector<DeviceQueue> two_ranks() {
    DeviceQueue waiting = one_period(1, 8, 2);
    DeviceQueue late = one_period(4, 6, 5);
    for (DeviceQueue* queue : {&waiting, &late}) {
        queue->meetings = {{.peer_wait_ns = 0, .meeting = 0, .arrival_ns = queue->enqueue_ns[0]}};
    }
    waiting.meetings[0].peer_wait_ns = 3 * kMs;
    return {waiting, late};
}

}  // namespace

TEST_CASE("ranks that meet in a collective gain what the last one's readiness moves") {
    const auto queues = two_ranks();
    // The late rank's 3 ms of lateness removed: every rank's step ends 3 ms sooner.
    HostTimeRemoval on_time{.per_queue = {{}, {{1 * kMs, 4 * kMs, 1.0}}}, .device_scale = 1.0};
    const auto prediction = predict(queues, on_time);
    CHECK(prediction.loop_ns == 20 * kMs);
    CHECK(prediction.saved_ns == 6 * kMs);
    CHECK(prediction.speedup == Approx(20.0 / 14.0));

    // Host time removed on the rank that waited only makes it wait longer.
    HostTimeRemoval waiting_faster{.per_queue = {{{0, 1 * kMs, 1.0}}, {}}, .device_scale = 1.0};
    CHECK(predict(queues, waiting_faster).saved_ns == 0);

    // More than the lateness removed from the late rank gains the job only its lateness past the
    // next rank, plus what the next rank's own removal gains.
    HostTimeRemoval both{.per_queue = {{{0, 1 * kMs, 1.0}}, {{0, 4 * kMs, 1.0}}},
                         .device_scale = 1.0};
    CHECK(predict(queues, both).saved_ns == 8 * kMs);

    // The late rank arriving on time: its 3 ms from the other's arrival to its own removed, which
    // gains each rank's step those 3 ms (its 6 ms of device work, enqueued at its arrival, still
    // fit), and no removal on the late rank alone gains more; the rank that waited was never late.
    const HostTimeRemoval arriving = on_time_removal(queues, 1);
    REQUIRE(arriving.per_queue.size() == 2);
    CHECK(arriving.per_queue[0].empty());
    REQUIRE(arriving.per_queue[1].size() == 1);
    CHECK(arriving.per_queue[1][0].start_ns == 1 * kMs);
    CHECK(arriving.per_queue[1][0].end_ns == 4 * kMs);
    CHECK(predict(queues, arriving).saved_ns == 6 * kMs);
    CHECK(on_time_removal(queues, 0).per_queue[0].empty());
}

TEST_CASE("a late rank whose device still had work to do gains the job only what it leaves") {
    // The late rank's 6 ms of device work in two launches. Both enqueued at its arrival (4 ms):
    // arriving 3 ms sooner, the work starts 3 ms sooner, and each rank's step ends 3 ms sooner.
    auto queues = two_ranks();
    DeviceQueue& late = queues[1];
    DrainPeriod two_launches = late.periods[0];
    two_launches.enqueues = 2;
    late.periods.set(0, two_launches);
    const auto gained = [&queues] { return predict(queues, on_time_removal(queues, 1)).saved_ns; };
    late.enqueue_ns = {4 * kMs, 4 * kMs};
    CHECK(gained() == 6 * kMs);
    // The first launch enqueued at 0.5 ms, before it was late: its device was busy while it was
    // late, so arriving on time only moves the collective's start from 4 ms to its device's
    // 6.5 ms: 0.5 ms a rank, not the 3 ms between the arrivals.
    late.enqueue_ns = {kMs / 2, 4 * kMs};
    CHECK(gained() == 1 * kMs);
}

TEST_CASE("a faster device does not shorten the time it waited for other ranks") {
    // Every device twice as fast: the late rank's 6 ms of work take 3, so it is ready 3 ms sooner
    // and so is the job; the waiting rank's 5 ms of its own work take 2.5 but its 3 ms wait stays
    // (halved, it would seem ready sooner than the late rank, which it cannot be).
    const auto queues = two_ranks();
    HostTimeRemoval faster{.per_queue = {}, .device_scale = 0.5};
    const auto prediction = predict(queues, faster);
    CHECK(prediction.saved_ns == 6 * kMs);
    // Nor is it work the device had.
    CHECK(queues[0].device_busy_ns() == 5 * kMs);
    // Alone, the waiting rank's period with a device twice as fast: only its own 5 ms halve.
    DeviceQueue alone = queues[0];
    alone.meetings[0].meeting = -1;
    CHECK(predict({alone}, faster).saved_ns == 2'500'000);
}

TEST_CASE("each period gains what it gains alone, measured or estimated, read from any enqueue") {
    // Four periods of 10 ms back to back: measured ones (one work for every bound) between
    // estimated ones (their most and least work apart), and the last one's first enqueue made
    // before its start. The recorded replay keeps the periods of one work once and the others'
    // bounds aside: read in order, they must replay as each period does on its own queue. (The
    // removals are chosen so that no period's gain is below nothing at any bound, which each
    // queue alone would clamp.)
    struct Period {
        std::int64_t device_ms, low_ms, high_ms;
        std::int64_t enqueue_us;  // from the period's start
    };
    const std::vector<Period> periods = {
        {6, 6, 6, 2000}, {5, 2, 8, 3000}, {7, 7, 7, 1000}, {4, 1, 9, -500}};
    const HostTimeRemoval removal{.per_queue = {{{1 * kMs, 2 * kMs, 1.0},
                                                 {11 * kMs, 13 * kMs, 1.0},
                                                 {22 * kMs, 24 * kMs, 0.5},
                                                 {31 * kMs, 33 * kMs, 1.0}}},
                                  .device_scale = 1.0};
    const HostTimeRemoval faster{.per_queue = {}, .device_scale = 0.5};
    DeviceQueue all;
    causeway::analysis::SpeedupPrediction alone_sum, faster_alone_sum;
    for (std::size_t k = 0; k < periods.size(); ++k) {
        const std::int64_t start = static_cast<std::int64_t>(k) * 10 * kMs;
        DrainPeriod p;
        p.start_ns = start;
        p.drain_entry_ns = start + 5 * kMs;
        p.drain_ns = start + 10 * kMs;
        p.enqueues = 1;
        p.device_ns = periods[k].device_ms * kMs;
        p.device_low_ns = periods[k].low_ms * kMs;
        p.device_high_ns = periods[k].high_ms * kMs;
        p.waited = p.device_low_ns == p.device_high_ns;
        DeviceQueue alone;
        alone.enqueue_ns = {start + periods[k].enqueue_us * 1000};
        alone.periods = {p};
        const auto gain = predict({alone}, removal);
        const auto faster_gain = predict({alone}, faster);
        for (auto [sum, add] : {std::pair{&alone_sum, &gain}, {&faster_alone_sum, &faster_gain}}) {
            sum->saved_ns += add->saved_ns;
            sum->saved_low_ns += add->saved_low_ns;
            sum->saved_high_ns += add->saved_high_ns;
        }
        p.first_enqueue = static_cast<std::uint32_t>(k);
        all.enqueue_ns.push_back(start + periods[k].enqueue_us * 1000);
        all.periods.push_back(p);
    }
    for (auto [together, alone] : {std::pair{predict({all}, removal), alone_sum},
                                   {predict({all}, faster), faster_alone_sum}}) {
        CHECK(together.saved_ns > 0);
        CHECK(together.saved_ns == alone.saved_ns);
        CHECK(together.saved_low_ns == alone.saved_low_ns);
        CHECK(together.saved_high_ns == alone.saved_high_ns);
        CHECK(together.saved_low_ns < together.saved_high_ns);
    }
}
