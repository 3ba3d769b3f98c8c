#include "analysis/measure/rank_series.hpp"

#include <algorithm>

namespace causeway::analysis {
namespace {

// The end of the first synchronisation `thread` began at or after `from_ns`; -1 when none did.
std::int64_t end_of_next_sync(const TraceModel& model, int thread, std::int64_t from_ns) {
    const CudaCalls& c = model.calls;
    const auto& calls = model.calls_by_thread[static_cast<std::size_t>(thread)];
    auto it = std::lower_bound(calls.begin(), calls.end(), from_ns,
                               [&](std::uint32_t i, std::int64_t ts) { return c.ts_ns[i] < ts; });
    auto sync = std::find_if(it, calls.end(), [&](std::uint32_t i) {
        return model.ops[static_cast<std::size_t>(c.op_index[i])].category == OpCategory::kSync;
    });
    return sync != calls.end() ? c.end_ns(*sync) : -1;
}

}  // namespace

std::vector<RankSeries> rank_series(const TraceModel& model) {
    std::vector<RankSeries> out;
    const auto calls_of = collectives_by_communicator(model);
    for (const auto& [key, comms] : communicators(model)) {
        for (int c : comms) {
            const NcclComm& comm = model.nccl_comms[static_cast<std::size_t>(c)];
            RankTiming timing;
            timing.process_index = comm.process_index;
            timing.pid = model.processes[static_cast<std::size_t>(comm.process_index)].pid;
            timing.rank = *comm.rank;
            RankSeries series{.communicator = key,
                              .rank = timing.rank,
                              .pid = timing.pid,
                              .arrival_ns = {},
                              .left_ns = {},
                              .last_seen = last_seen(model, timing)};
            if (auto found = calls_of.find(c); found != calls_of.end()) {
                for (int call : found->second) {
                    const NcclCall& collective = model.nccl_calls[static_cast<std::size_t>(call)];
                    series.arrival_ns.push_back(collective.ts_ns);
                    series.left_ns.push_back(
                        end_of_next_sync(model, collective.thread_index, collective.ts_ns));
                }
            }
            out.push_back(std::move(series));
        }
    }
    return out;
}

}  // namespace causeway::analysis
