#include "analysis/measure/collective_meetings.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

#include "analysis/model/saturating.hpp"

namespace causeway::analysis {
namespace {

// What the collectives say of `period` of `queue`, held from the first collective of its queue
// that is marked.
PeriodMeeting& marked(DeviceQueue& queue, std::size_t period) {
    queue.meetings.resize(queue.periods.size());  // sized once
    return queue.meetings[period];
}

struct PeriodRef {
    std::size_t queue = 0;
    std::size_t period = 0;
    auto operator<=>(const PeriodRef&) const = default;
};

// The period of `queues` that holds `call` (its thread's queue, the period its entry falls in).
std::optional<PeriodRef> period_of(const std::vector<DeviceQueue>& queues, const NcclCall& call) {
    const int q = queue_of_thread(queues, call.thread_index);
    if (q < 0) {
        return std::nullopt;
    }
    const auto& periods = queues[static_cast<std::size_t>(q)].periods;
    auto after = std::partition_point(periods.begin(), periods.end(), [&](const DrainPeriod& p) {
        return p.drain_ns <= call.ts_ns;
    });
    if (after == periods.end() || after->start_ns > call.ts_ns) {
        return std::nullopt;
    }
    return PeriodRef{static_cast<std::size_t>(q),
                     static_cast<std::size_t>(after - periods.begin())};
}

// One collective every rank reached: each rank's period and arrival.
struct Collective {
    std::vector<std::pair<PeriodRef, std::int64_t>> ranks;
    std::int64_t last_arrival_ns = 0;
};

}  // namespace

void mark_collectives(const TraceModel& model, const std::vector<CommunicatorRanks>& communicators,
                      std::vector<DeviceQueue>& queues) {
    std::vector<Collective> found;
    std::map<PeriodRef, std::size_t> last_in_period;  // the latest collective each period holds
    for (const CommunicatorRanks& communicator : communicators) {
        for (std::size_t k = 0; k < static_cast<std::size_t>(communicator.aligned); ++k) {
            Collective collective;
            for (const RankTiming& rank : communicator.ranks) {
                const auto& call = model.nccl_calls[static_cast<std::size_t>(rank.calls[k])];
                auto where = period_of(queues, call);
                if (!where) {
                    break;
                }
                collective.ranks.emplace_back(*where, call.ts_ns);
                collective.last_arrival_ns = std::max(collective.last_arrival_ns, call.ts_ns);
            }
            if (collective.ranks.size() != communicator.ranks.size()) {
                continue;  // a rank's call lies outside its loop (the filter) or off its queue
            }
            for (const auto& [where, arrival_ns] : collective.ranks) {
                add_to(marked(queues[where.queue], where.period).peer_wait_ns,
                       collective.last_arrival_ns - arrival_ns);
                auto [slot, inserted] = last_in_period.emplace(where, found.size());
                if (!inserted &&
                    found[slot->second].last_arrival_ns <= collective.last_arrival_ns) {
                    slot->second = found.size();
                }
            }
            found.push_back(std::move(collective));
        }
    }
    std::int32_t meetings = 0;
    for (std::size_t c = 0; c < found.size(); ++c) {
        const bool last_everywhere =
            std::all_of(found[c].ranks.begin(), found[c].ranks.end(),
                        [&](const auto& rank) { return last_in_period.at(rank.first) == c; });
        if (!last_everywhere) {
            continue;
        }
        // The collective ends on every rank's device at once: the earliest finish a drain
        // showed measures the work of the ranks whose drains did not show theirs.
        std::int64_t done_ns = -1;
        for (const auto& [where, arrival_ns] : found[c].ranks) {
            PeriodMeeting& meeting = marked(queues[where.queue], where.period);
            meeting.meeting = meetings;
            meeting.arrival_ns = arrival_ns;
            const std::int64_t period_done_ns =
                queues[where.queue].bounds_of(where.period).device_done_ns;
            if (queues[where.queue].periods[where.period].waited &&
                (done_ns < 0 || period_done_ns < done_ns)) {
                done_ns = period_done_ns;
            }
        }
        for (const auto& [where, arrival_ns] : found[c].ranks) {
            if (!queues[where.queue].periods[where.period].waited && done_ns >= 0) {
                set_device_done(queues[where.queue], where.period, done_ns);
            }
        }
        ++meetings;
    }
}

HostTimeRemoval on_time_removal(const std::vector<DeviceQueue>& queues, std::size_t late) {
    // Per meeting: the late rank's period and arrival, and the latest arrival of the others.
    struct Arrivals {
        std::optional<std::size_t> late_period;
        std::int64_t others_latest_ns = -1;
    };
    std::map<std::int32_t, Arrivals> meetings;
    for (std::size_t q = 0; q < queues.size(); ++q) {
        for (std::size_t k = 0; k < queues[q].meetings.size(); ++k) {
            const PeriodMeeting& p = queues[q].meetings[k];
            if (p.meeting < 0) {
                continue;
            }
            Arrivals& m = meetings[p.meeting];
            if (q == late) {
                m.late_period = k;
            } else {
                m.others_latest_ns = std::max(m.others_latest_ns, p.arrival_ns);
            }
        }
    }
    HostTimeRemoval removal;
    removal.per_queue.resize(queues.size());
    for (const auto& [id, m] : meetings) {
        if (!m.late_period || m.others_latest_ns < 0) {
            continue;
        }
        const std::int64_t arrival_ns = queues[late].meetings[*m.late_period].arrival_ns;
        const std::int64_t from =
            std::max(m.others_latest_ns, queues[late].periods[*m.late_period].start_ns);
        if (arrival_ns > from) {
            removal.per_queue[late].push_back({from, arrival_ns, 1.0});
        }
    }
    normalise_intervals(removal.per_queue[late]);
    return removal;
}

}  // namespace causeway::analysis
