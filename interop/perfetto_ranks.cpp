#include "interop/perfetto_ranks.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <string>

#include "analysis/measure/python_lines.hpp"
#include "analysis/measure/rank_alignment.hpp"
#include "analysis/model/trace_model.hpp"

namespace causeway::interop {
namespace {

// Whether the trace names the rank of any NCCL communicator (schema 6 and later).
Result<bool> has_ranks(const tracedb::TraceReader& trace) {
    if (trace.schema_version() < 6) {
        return false;
    }
    auto ranks = trace.db().prepare("SELECT 1 FROM nccl_comm WHERE rank IS NOT NULL LIMIT 1");
    if (!ranks) {
        return ranks.error();
    }
    return ranks->step() == SQLITE_ROW;
}

const std::string& op_of(const analysis::TraceModel& model, int nccl_call) {
    const auto& call = model.nccl_calls[static_cast<std::size_t>(nccl_call)];
    return model.ops[static_cast<std::size_t>(call.op_index)].name;
}

// One communicator's tracks, as JSON process `pid`; returns the slices written.
std::int64_t write_communicator(const analysis::TraceModel& model,
                                const analysis::CommunicatorRanks& communicator,
                                JsonEventWriter& out, std::int64_t pid) {
    out.process_name(pid, "NCCL communicator of " + std::to_string(communicator.nranks) +
                              " ranks (collectives aligned)");
    std::int64_t slices = 0;
    for (const analysis::RankTiming& rank : communicator.ranks) {
        const std::int64_t tid = rank.rank + 1;
        out.thread_name(
            pid, tid,
            "rank " + std::to_string(rank.rank) + " [pid " + std::to_string(rank.pid) + "]");
        out.thread_sort_index(pid, tid, rank.rank);
    }
    for (std::size_t k = 0; k < static_cast<std::size_t>(communicator.aligned); ++k) {
        const analysis::RankTiming* last = &communicator.ranks.front();
        for (const analysis::RankTiming& rank : communicator.ranks) {
            if (collective_arrival(model, rank, k) > collective_arrival(model, *last, k)) {
                last = &rank;
            }
        }
        const std::int64_t last_ns = collective_arrival(model, *last, k);
        for (const analysis::RankTiming& rank : communicator.ranks) {
            const std::int64_t arrival = collective_arrival(model, rank, k);
            out.slice(pid, rank.rank + 1, arrival, last_ns - arrival,
                      op_of(model, rank.calls[k]) + " #" + std::to_string(k + 1), "nccl.collective",
                      {{"collective", k + 1},
                       {"last_rank", last->rank},
                       {"arrived_last", &rank == last},
                       {"waited_ns", last_ns - arrival}});
            ++slices;
        }
    }
    if (!communicator.missing) {
        return slices;
    }
    const auto number = static_cast<std::size_t>(communicator.missing->number);
    for (const analysis::RankTiming& rank : communicator.ranks) {
        if (rank.calls.size() >= number) {
            const std::int64_t arrival = collective_arrival(model, rank, number - 1);
            out.slice(pid, rank.rank + 1, arrival,
                      std::max<std::int64_t>(0, model.end_ns() - arrival),
                      op_of(model, rank.calls[number - 1]) + " #" + std::to_string(number) +
                          ": a rank never arrived",
                      "nccl.collective", {{"collective", number}, {"completed", false}});
            ++slices;
        }
    }
    for (const analysis::AbsentRank& absent : communicator.missing->absent) {
        nlohmann::json args = {{"never_issued_collective", number}};
        if (absent.stuck_at) {
            args["last_seen_at"] = analysis::describe_line(*absent.stuck_at);
        }
        out.slice(pid, absent.rank + 1, absent.last_call_ns, 0,
                  "last call: " + absent.last_call.value_or("none"), "nccl.absent", args);
        ++slices;
    }
    return slices;
}

}  // namespace

Result<std::int64_t> write_rank_tracks(const tracedb::TraceReader& trace, JsonEventWriter& out,
                                       std::int64_t first_pid) {
    auto ranks = has_ranks(trace);
    if (!ranks || !*ranks) {
        return ranks ? Result<std::int64_t>(0) : Result<std::int64_t>(ranks.error());
    }
    auto model = analysis::load_trace(trace);
    if (!model) {
        return Error{"cannot align the NCCL ranks of " + trace.path() + ": " +
                     model.error().message};
    }
    std::int64_t slices = 0;
    std::int64_t pid = first_pid;
    for (const auto& communicator : analysis::align_ranks(*model)) {
        slices += write_communicator(*model, communicator, out, pid++);
    }
    return slices;
}

}  // namespace causeway::interop
