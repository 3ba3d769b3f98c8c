#include "fleet/rank_meetings.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <set>

#include "analysis/diagnose/chain_builders.hpp"

namespace causeway::fleet {
namespace {

using Ranks = std::vector<const PushedRank*>;  // by rank

// The communicators whose ranks 0..n-1 were all pushed, once each.
std::map<analysis::CommunicatorKey, Ranks> complete_communicators(
    const std::vector<PushedRank>& pushed) {
    std::map<analysis::CommunicatorKey, Ranks> out;
    for (const PushedRank& rank : pushed) {
        out[rank.communicator].push_back(&rank);
    }
    for (auto& [key, ranks] : out) {
        std::sort(ranks.begin(), ranks.end(),
                  [](const PushedRank* a, const PushedRank* b) { return a->rank < b->rank; });
    }
    std::erase_if(out, [](const auto& entry) {
        const auto& [key, ranks] = entry;
        if (static_cast<std::int64_t>(ranks.size()) != key.first) {
            return true;
        }
        for (std::size_t r = 0; r < ranks.size(); ++r) {
            if (ranks[r]->rank != static_cast<std::int64_t>(r)) {
                return true;
            }
        }
        return false;
    });
    return out;
}

std::int64_t median(std::vector<std::int64_t> values) {
    auto mid = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
    std::nth_element(values.begin(), mid, values.end());
    return *mid;
}

// Each node's clock against the node of rank 0 of the first communicator: the median difference
// of their ranks' leaving times, over every collective both left with a synchronisation.
std::vector<NodeClock> estimate_clocks(const std::map<analysis::CommunicatorKey, Ranks>& groups) {
    std::vector<NodeClock> clocks;
    if (groups.empty()) {
        return clocks;
    }
    const std::string& reference = groups.begin()->second.front()->node;
    std::map<std::string, std::vector<std::int64_t>> differences;
    for (const auto& [key, ranks] : groups) {
        auto on_reference = std::find_if(ranks.begin(), ranks.end(),
                                         [&](const PushedRank* r) { return r->node == reference; });
        for (const PushedRank* rank : ranks) {
            auto& of_node = differences[rank->node];
            if (rank->node == reference || on_reference == ranks.end()) {
                continue;
            }
            const PushedRank& ref = **on_reference;
            const std::size_t shared = std::min(rank->left_ns.size(), ref.left_ns.size());
            for (std::size_t k = 0; k < shared; ++k) {
                if (rank->left_ns[k] >= 0 && ref.left_ns[k] >= 0) {
                    of_node.push_back(rank->left_ns[k] - ref.left_ns[k]);
                }
            }
        }
    }
    for (const auto& [node, of_node] : differences) {
        clocks.push_back({.node = node,
                          .offset_ns = of_node.empty() ? 0 : median(of_node),
                          .reference = node == reference,
                          .samples = static_cast<std::int64_t>(of_node.size())});
    }
    return clocks;
}

// The late rank, when the job's wait for it is worth a chain.
std::optional<LateRank> late_rank_of(const Ranks& ranks,
                                     const std::vector<std::vector<std::int64_t>>& arrivals,
                                     const analysis::CommunicatorRanks& timed) {
    const analysis::RankTiming* late = timed.latest();
    if (late == nullptr || timed.aligned == 0) {
        return std::nullopt;
    }
    std::int64_t first = std::numeric_limits<std::int64_t>::max();
    std::int64_t last = std::numeric_limits<std::int64_t>::min();
    for (const auto& at : arrivals) {
        first = std::min(first, at.front());
        last = std::max(last, at[static_cast<std::size_t>(timed.aligned - 1)]);
    }
    const std::int64_t span = last - first;
    if (span <= 0 ||
        static_cast<double>(late->late_ns) < analysis::kChainMinShare * static_cast<double>(span)) {
        return std::nullopt;
    }
    return LateRank{
        .node = ranks[static_cast<std::size_t>(late->rank)]->node,
        .rank = late->rank,
        .arrived_last_share =
            static_cast<double>(late->arrived_last) / static_cast<double>(timed.aligned),
        .mean_late_ns = late->late_ns / late->arrived_last,
        .span_ns = span,
        .late_ns = late->late_ns,
        .job_speedup = static_cast<double>(span) / static_cast<double>(span - late->late_ns)};
}

JobCommunicator meet(const Ranks& ranks, const std::map<std::string, std::int64_t>& offsets) {
    analysis::CommunicatorRanks timed;
    timed.nranks = static_cast<std::int64_t>(ranks.size());
    std::vector<std::vector<std::int64_t>> arrivals;
    std::int64_t most = 0;
    timed.aligned = std::numeric_limits<std::int64_t>::max();
    for (const PushedRank* rank : ranks) {
        analysis::RankTiming timing;
        timing.pid = rank->pid;
        timing.rank = rank->rank;
        timing.collectives = static_cast<std::int64_t>(rank->arrival_ns.size());
        most = std::max(most, timing.collectives);
        timed.aligned = std::min(timed.aligned, timing.collectives);
        timed.ranks.push_back(std::move(timing));
        auto& at = arrivals.emplace_back(rank->arrival_ns);
        for (std::int64_t& ns : at) {
            ns -= offsets.at(rank->node);
        }
    }
    analysis::time_arrivals(arrivals, timed.aligned, timed.ranks);
    JobCommunicator out{.nranks = timed.nranks, .aligned = timed.aligned, .ranks = {}};
    for (std::size_t r = 0; r < ranks.size(); ++r) {
        const analysis::RankTiming& timing = timed.ranks[r];
        out.ranks.push_back({.node = ranks[r]->node,
                             .rank = timing.rank,
                             .pid = timing.pid,
                             .collectives = timing.collectives,
                             .arrived_last = timing.arrived_last,
                             .late_ns = timing.late_ns,
                             .waited_ns = timing.waited_ns});
        if (timing.collectives == timed.aligned && timed.aligned < most) {
            out.absent.push_back({.collective = timed.aligned + 1,
                                  .node = ranks[r]->node,
                                  .rank = timing.rank,
                                  .pid = timing.pid,
                                  .last_call = ranks[r]->last_call,
                                  .stuck_at = ranks[r]->stuck_at});
        }
    }
    out.missing_number = timed.aligned < most ? timed.aligned + 1 : 0;
    out.late_rank = late_rank_of(ranks, arrivals, timed);
    return out;
}

}  // namespace

RankMeetings meet_ranks(const std::vector<PushedRank>& pushed) {
    RankMeetings out;
    const auto groups = complete_communicators(pushed);
    out.clocks = estimate_clocks(groups);
    std::map<std::string, std::int64_t> offsets;
    for (const NodeClock& clock : out.clocks) {
        offsets[clock.node] = clock.offset_ns;
    }
    for (const auto& [key, ranks] : groups) {
        out.communicators.push_back(meet(ranks, offsets));
    }
    return out;
}

}  // namespace causeway::fleet
