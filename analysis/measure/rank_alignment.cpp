#include "analysis/measure/rank_alignment.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <string_view>
#include <utility>

#include "analysis/model/saturating.hpp"

namespace causeway::analysis {
namespace {

bool is_collective(const OpInfo& op) {
    if (op.api != OpApi::kNccl) {
        return false;
    }
    for (std::string_view name :
         {"ncclAllReduce", "ncclAllGather", "ncclReduceScatter", "ncclBroadcast", "ncclReduce"}) {
        if (op.name == name) {
            return true;
        }
    }
    return false;
}

// Whether `comms` are ranks 0..nranks-1 once each.
bool complete(const TraceModel& model, const std::vector<int>& comms, std::int64_t nranks) {
    if (static_cast<std::int64_t>(comms.size()) != nranks) {
        return false;
    }
    std::vector<bool> seen(static_cast<std::size_t>(nranks), false);
    for (int c : comms) {
        const std::int64_t rank = *model.nccl_comms[static_cast<std::size_t>(c)].rank;
        if (rank < 0 || rank >= nranks || seen[static_cast<std::size_t>(rank)]) {
            return false;
        }
        seen[static_cast<std::size_t>(rank)] = true;
    }
    return true;
}

// Who arrived last at each collective every rank reached, by how much, and how long each rank
// waited for the last.
void time_collectives(const TraceModel& model, CommunicatorRanks& out) {
    std::vector<std::vector<std::int64_t>> arrivals;
    for (const RankTiming& rank : out.ranks) {
        auto& at = arrivals.emplace_back();
        for (std::size_t k = 0; k < static_cast<std::size_t>(out.aligned); ++k) {
            at.push_back(collective_arrival(model, rank, k));
        }
    }
    time_arrivals(arrivals, out.aligned, out.ranks);
}

// The Python line of a recorded stack, if it has Python frames.
std::optional<CodeLine> line_of_stack(const TraceModel& model, std::int64_t stack_id) {
    auto frames = model.python_frames.find(stack_id);
    return frames != model.python_frames.end() ? stack_line(frames->second) : std::nullopt;
}

// Where `thread` was after `after_ns`: its last switch-out sampled since (as a GPU-driving thread,
// or as one leaving a CPU it had taken from another), else `call_stack`.
std::optional<CodeLine> stuck_line(const TraceModel& model, int thread, std::int64_t after_ns,
                                   std::int64_t call_stack) {
    const SwitchOutSample* last = nullptr;
    for (const SwitchOutSample& sample : model.switch_outs) {
        if (sample.thread_index == thread && sample.role != tracedb::SwitchRole::kGilHolder &&
            sample.ts_ns >= after_ns && (last == nullptr || sample.ts_ns > last->ts_ns) &&
            model.python_frames.count(sample.stack_id) != 0) {
            last = &sample;
        }
    }
    return last != nullptr ? line_of_stack(model, last->stack_id)
                           : line_of_stack(model, call_stack);
}

}  // namespace

std::map<CommunicatorKey, std::vector<int>> communicators(const TraceModel& model) {
    std::map<CommunicatorKey, std::vector<int>> groups;
    std::map<std::pair<int, std::int64_t>, int> made;  // (process, size) -> communicators so far
    for (std::size_t c = 0; c < model.nccl_comms.size(); ++c) {
        const NcclComm& comm = model.nccl_comms[c];
        if (!comm.nranks || !comm.rank || *comm.nranks < 2) {
            continue;
        }
        const int order = made[{comm.process_index, *comm.nranks}]++;
        groups[{*comm.nranks, order}].push_back(static_cast<int>(c));
    }
    return groups;
}

std::map<int, std::vector<int>> collectives_by_communicator(const TraceModel& model) {
    std::map<int, std::vector<int>> out;
    for (std::size_t c = 0; c < model.nccl_calls.size(); ++c) {
        const NcclCall& call = model.nccl_calls[c];
        if (call.comm_index >= 0 &&
            is_collective(model.ops[static_cast<std::size_t>(call.op_index)])) {
            out[call.comm_index].push_back(static_cast<int>(c));
        }
    }
    return out;
}

AbsentRank last_seen(const TraceModel& model, const RankTiming& rank) {
    AbsentRank absent{.rank = rank.rank,
                      .pid = rank.pid,
                      .last_call = std::nullopt,
                      .last_call_ns = 0,
                      .stuck_at = std::nullopt};
    const CudaCalls& c = model.calls;
    int last_thread = -1;
    std::int64_t last_stack = -1;
    for (int t : model.processes[static_cast<std::size_t>(rank.process_index)].thread_indices) {
        const auto& calls = model.calls_by_thread[static_cast<std::size_t>(t)];
        // The call the program made: a driver call inside a runtime call is the runtime's.
        auto last = std::find_if(calls.rbegin(), calls.rend(),
                                 [&](std::uint32_t i) { return !c.enclosed[i]; });
        if (last != calls.rend() && (!absent.last_call || c.ts_ns[*last] > absent.last_call_ns)) {
            absent.last_call = model.ops[static_cast<std::size_t>(c.op_index[*last])].name;
            absent.last_call_ns = c.ts_ns[*last];
            last_thread = t;
            last_stack = c.stack_id[*last];
        }
    }
    if (last_thread >= 0) {
        absent.stuck_at = stuck_line(model, last_thread, absent.last_call_ns, last_stack);
    }
    return absent;
}

void time_arrivals(const std::vector<std::vector<std::int64_t>>& arrivals, std::int64_t aligned,
                   std::vector<RankTiming>& ranks) {
    for (std::size_t k = 0; k < static_cast<std::size_t>(aligned); ++k) {
        auto at = [&](std::size_t r) { return arrivals[r][k]; };
        std::size_t last = 0;
        for (std::size_t r = 1; r < ranks.size(); ++r) {
            last = at(r) > at(last) ? r : last;
        }
        std::int64_t next_latest = std::numeric_limits<std::int64_t>::min();
        for (std::size_t r = 0; r < ranks.size(); ++r) {
            add_to(ranks[r].waited_ns, at(last) - at(r));
            next_latest = r != last ? std::max(next_latest, at(r)) : next_latest;
        }
        ++ranks[last].arrived_last;
        add_to(ranks[last].late_ns, at(last) - next_latest);
    }
}

std::int64_t collective_arrival(const TraceModel& model, const RankTiming& rank,
                                std::size_t number) {
    return model.nccl_calls[static_cast<std::size_t>(rank.calls[number])].ts_ns;
}

const RankTiming* CommunicatorRanks::latest() const {
    const RankTiming* most = nullptr;
    for (const RankTiming& rank : ranks) {
        if (rank.arrived_last > 0 && (most == nullptr || rank.arrived_last > most->arrived_last)) {
            most = &rank;
        }
    }
    return most;
}

std::vector<CommunicatorRanks> align_ranks(const TraceModel& model) {
    std::vector<CommunicatorRanks> out;
    const auto calls_of = collectives_by_communicator(model);
    for (auto& [key, comms] : communicators(model)) {
        const std::int64_t nranks = key.first;
        if (!complete(model, comms, nranks)) {
            continue;
        }
        std::sort(comms.begin(), comms.end(), [&](int a, int b) {
            return *model.nccl_comms[static_cast<std::size_t>(a)].rank <
                   *model.nccl_comms[static_cast<std::size_t>(b)].rank;
        });
        CommunicatorRanks group;
        group.nranks = nranks;
        std::int64_t most = 0;
        for (int c : comms) {
            const NcclComm& comm = model.nccl_comms[static_cast<std::size_t>(c)];
            auto found = calls_of.find(c);
            std::vector<int> calls = found != calls_of.end() ? found->second : std::vector<int>{};
            const auto count = static_cast<std::int64_t>(calls.size());
            most = std::max(most, count);
            group.ranks.push_back(
                {.process_index = comm.process_index,
                 .pid = model.processes[static_cast<std::size_t>(comm.process_index)].pid,
                 .rank = *comm.rank,
                 .collectives = count,
                 .arrived_last = 0,
                 .late_ns = 0,
                 .waited_ns = 0,
                 .calls = std::move(calls)});
        }
        group.aligned = most;
        for (const RankTiming& rank : group.ranks) {
            group.aligned = std::min(group.aligned, rank.collectives);
        }
        if (most == 0) {
            continue;
        }
        if (group.aligned < most) {
            MissingCollective missing;
            missing.number = group.aligned + 1;
            for (const RankTiming& rank : group.ranks) {
                if (rank.collectives == group.aligned) {
                    missing.absent.push_back(last_seen(model, rank));
                }
            }
            group.missing = std::move(missing);
        }
        time_collectives(model, group);
        out.push_back(std::move(group));
    }
    return out;
}

}  // namespace causeway::analysis
