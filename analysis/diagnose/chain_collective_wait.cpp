// COLLECTIVE-WAIT: the ranks of an NCCL job wait in their collectives for the one that arrives
// last (rank_alignment.hpp). Its cost is what the job gains when that rank arrives as the next one
// did: at each collective where the ranks meet (collective_meetings.hpp), the time between the
// two, on every rank, less what the late rank's device still had to do before the collective
// (the critical-path replay). No removal of one of its own causes gains the job more. Why it was
// late is what its GPU-driving thread spent more time on than the next-to-last rank's did in their
// steps into those collectives, by the causes of cause_time.hpp.
#include <algorithm>
#include <limits>
#include <map>

#include "analysis/diagnose/chain_builders.hpp"
#include "analysis/measure/collective_meetings.hpp"
#include "analysis/measure/system_context.hpp"

namespace causeway::analysis {
namespace {

// Where the late rank was late: per queue, from the next-to-last rank's arrival to its own, at
// the collectives it arrived last at; and what the others waited for it there. (How often and by
// how much it was last is its RankTiming's.)
struct Lateness {
    PerThreadTime windows;  // per primary thread: next-to-last arrival to its own, where last
    // Per primary thread, where it was last at a collective (not the first): the late rank's step
    // into it (from its arrival at the one before), and the next-to-last rank's.
    PerThreadTime late_steps;
    PerThreadTime next_steps;
    std::int64_t late_ns = 0;  // summed: its arrival after the next-to-last rank's
    std::int64_t others_waited_ns = 0;
};

// Adds the step of `rank` into collective `k` (from its arrival at k - 1) to its queue's list.
void add_step(const ChainInputs& in, const RankTiming& rank, std::size_t k, PerThreadTime& steps) {
    const NcclCall& call = in.model.nccl_calls[static_cast<std::size_t>(rank.calls[k])];
    if (int q = queue_of_thread(in.queues, call.thread_index); q >= 0) {
        steps[static_cast<std::size_t>(q)].push_back(
            {.start_ns = collective_arrival(in.model, rank, k - 1),
             .end_ns = collective_arrival(in.model, rank, k),
             .weight = 1.0});
    }
}

Lateness lateness_of(const ChainInputs& in, const CommunicatorRanks& communicator,
                     const RankTiming& late) {
    Lateness out;
    for (PerThreadTime* list : {&out.windows, &out.late_steps, &out.next_steps}) {
        list->resize(in.queues.size());
    }
    for (std::size_t k = 0; k < static_cast<std::size_t>(communicator.aligned); ++k) {
        const std::int64_t arrival = collective_arrival(in.model, late, k);
        std::int64_t next_latest = std::numeric_limits<std::int64_t>::min();
        const RankTiming* next = nullptr;
        std::int64_t waited = 0;
        for (const RankTiming& rank : communicator.ranks) {
            if (&rank != &late) {
                const std::int64_t other = collective_arrival(in.model, rank, k);
                next = other > next_latest ? &rank : next;
                next_latest = std::max(next_latest, other);
                add_to(waited, arrival - other);
            }
        }
        if (next_latest >= arrival) {
            continue;  // another rank was as late
        }
        add_to(out.others_waited_ns, waited);
        add_to(out.late_ns, arrival - next_latest);
        if (k > 0) {
            add_step(in, late, k, out.late_steps);
            add_step(in, *next, k, out.next_steps);
        }
        const NcclCall& call = in.model.nccl_calls[static_cast<std::size_t>(late.calls[k])];
        if (int q = queue_of_thread(in.queues, call.thread_index); q >= 0) {
            out.windows[static_cast<std::size_t>(q)].push_back(
                {.start_ns = next_latest, .end_ns = arrival, .weight = 1.0});
        }
    }
    for (PerThreadTime* lists : {&out.windows, &out.late_steps, &out.next_steps}) {
        for (auto& list : *lists) {
            normalise_intervals(list);
        }
    }
    return out;
}

// Time of `intervals` inside `window` (sorted and disjoint), weighted.
double overlap_ns(const IntervalList& intervals, const IntervalList& window) {
    Intervals merged;
    for (const WeightedInterval& w : window) {
        merged.emplace_back(w.start_ns, w.end_ns);
    }
    double total = 0;
    for (const WeightedInterval& i : intervals) {
        total += i.weight * static_cast<double>(overlap_with(merged, i.start_ns, i.end_ns));
    }
    return total;
}

// What the job gains when `late` arrives at each collective it was last at as the next-to-last rank
// did (collective_meetings.hpp), and at least what removing any one cause of its GPU-driving
// thread's time gains (a rank woken late after a collective starts its next step late too);
// absent without its queue or the device's.
std::optional<CriticalPathCost> on_time_cost(const ChainInputs& in, const RankTiming& late) {
    const NcclCall& first = in.model.nccl_calls[static_cast<std::size_t>(late.calls.front())];
    const int q = queue_of_thread(in.queues, first.thread_index);
    if (q < 0) {
        return std::nullopt;
    }
    const auto late_queue = static_cast<std::size_t>(q);
    auto best = critical_path_cost(in, on_time_removal(in.queues, late_queue));
    for (const auto& [key, per_thread] : in.timeline.by_cause) {
        if (late_queue >= per_thread.size() || per_thread[late_queue].empty()) {
            continue;
        }
        PerThreadTime on_late_rank(per_thread.size());
        on_late_rank[late_queue] = per_thread[late_queue];
        auto cause = union_cost(in, {&on_late_rank});
        if (cause && best && cause->cost_ns > best->cost_ns) {
            best = cause;
        }
    }
    return best;
}

// The time the GPU-driving threads spent in `steps`, by cause: a cause kind's name, or
// 'cuda_calls' for the calls' own time.
std::map<std::string, double> time_by_cause(const ChainInputs& in, const PerThreadTime& steps) {
    std::map<std::string, double> by_cause;
    for (std::size_t q = 0; q < steps.size(); ++q) {
        for (const auto& [key, per_thread] : in.timeline.by_cause) {
            by_cause[cause_kind_name(key.kind)] += overlap_ns(per_thread[q], steps[q]);
        }
        for (const PerThreadTime& category : in.timeline.in_calls) {
            by_cause["cuda_calls"] += overlap_ns(category[q], steps[q]);
        }
    }
    return by_cause;
}

// Why the late rank was late: the cause its GPU-driving thread spent the most more time on than
// the next-to-last rank's did, in their steps into the collectives it was last at (work every
// rank does is no reason to be late), and that excess's share of its lateness.
void add_why_late(const ChainInputs& in, const RankTiming& late, const Lateness& lateness,
                  CausalChain& chain) {
    const auto late_time = time_by_cause(in, lateness.late_steps);
    const auto next_time = time_by_cause(in, lateness.next_steps);
    std::string most = "unattributed";
    double most_ns = 0;
    for (const auto& [cause, ns] : late_time) {
        const auto next = next_time.find(cause);
        const double excess = ns - (next != next_time.end() ? next->second : 0.0);
        if (excess > most_ns) {
            most = cause;
            most_ns = excess;
        }
    }
    const double share =
        lateness.late_ns > 0 ? std::min(1.0, most_ns / static_cast<double>(lateness.late_ns)) : 0.0;
    chain.facts.push_back({Fact::kLateCause, most});
    chain.facts.push_back({Fact::kLateCauseShare, share});
    chain.evidence.push_back(make_evidence(EvidenceKind::kLateRankCauseShare, share,
                                           {{Fact::kRank, late.rank}, {Fact::kCause, most}}));
}

std::optional<CausalChain> collective_wait_chain(const ChainInputs& in,
                                                 const CommunicatorRanks& communicator) {
    const RankTiming* late = communicator.latest();
    if (late == nullptr) {
        return std::nullopt;
    }
    const Lateness lateness = lateness_of(in, communicator, *late);
    const double share = in.share_of_span(lateness.others_waited_ns);
    if (late->arrived_last == 0 || share < kChainMinShare) {
        return std::nullopt;
    }
    auto cost = on_time_cost(in, *late);
    CausalChain chain;
    chain.root_cause_class = VerdictClass::kCollectiveWait;
    const ProcessInfo& process = in.model.processes[static_cast<std::size_t>(late->process_index)];
    chain.actor = {.kind = CauseKind::kLateRank,
                   .name = "rank " + std::to_string(late->rank),
                   .pid = process.pid,
                   .tid = 0,
                   .pids = {process.pid},
                   .in_tree = true,
                   .container = process.container};
    chain.time_lost_ns = lateness.others_waited_ns;
    chain.time_lost_share = share;
    chain.critical_path = cost;
    chain.effects.push_back({.kind = EffectKind::kPeerWait,
                             .ns = lateness.others_waited_ns,
                             .share = share,
                             .count = late->arrived_last});
    chain.op = in.model
                   .ops[static_cast<std::size_t>(
                       in.model.nccl_calls[static_cast<std::size_t>(late->calls.front())].op_index)]
                   .name;
    const std::int64_t late_avg_ns = late->late_ns / late->arrived_last;
    chain.facts = {{Fact::kRank, late->rank},
                   {Fact::kArrivedLast, late->arrived_last},
                   {Fact::kCollectives, communicator.aligned},
                   {Fact::kLateAvgNs, late_avg_ns}};
    const double last_share =
        static_cast<double>(late->arrived_last) / static_cast<double>(communicator.aligned);
    chain.evidence.push_back(make_evidence(EvidenceKind::kRankArrivedLastShare, last_share,
                                           {{Fact::kRank, late->rank},
                                            {Fact::kCollectives, communicator.aligned},
                                            {Fact::kLateAvgNs, late_avg_ns}}));
    add_why_late(in, *late, lateness, chain);
    add_late_rank_line(in, lateness.windows, chain);
    chain.recommendations = {{RecommendationKind::kLateRankFirst, {{Fact::kRank, late->rank}}},
                             {RecommendationKind::kBalanceRanks, {{Fact::kRank, late->rank}}}};
    chain.confidence = last_share >= 0.8 ? confidence_from(cost ? cost->share : share, 0.2, 0.05)
                                         : Confidence::kMedium;
    return chain;
}

}  // namespace

std::vector<CausalChain> collective_wait_chains(const ChainInputs& in) {
    std::vector<CausalChain> chains;
    for (const CommunicatorRanks& communicator : in.ranks) {
        if (auto chain = collective_wait_chain(in, communicator)) {
            chains.push_back(std::move(*chain));
        }
    }
    return chains;
}

}  // namespace causeway::analysis
