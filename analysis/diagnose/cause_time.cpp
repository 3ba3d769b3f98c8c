#include "analysis/diagnose/cause_time.hpp"

#include <algorithm>
#include <optional>

#include "analysis/diagnose/thread_pieces.hpp"
#include "analysis/model/accounted_calls.hpp"

namespace causeway::analysis {
namespace {

class TimelineBuilder {
  public:
    TimelineBuilder(const TraceModel& model, const Roles& roles, const CallAccounting& acc,
                    const std::vector<Cause>& causes, bool every_category, CauseTimeline& out)
        : model_(model),
          roles_(roles),
          threads_(acc.primary.size()),
          every_category_(every_category),
          out_(out) {
        std::int64_t runq = 0;
        for (const Cause& cause : causes) {
            add_to(runq, cause.runq_wait_ns);
        }
        for (const Cause& cause : causes) {
            if (cause.runq_wait_ns > 0 && runq > 0) {
                runq_shares_.emplace_back(
                    cause.key, static_cast<double>(cause.runq_wait_ns) / static_cast<double>(runq));
            }
        }
        for (const ThreadAccount& primary : acc.primary) {
            const auto t = static_cast<std::size_t>(primary.thread_index);
            // Without the thread's scheduling, time between calls is not known to be on a CPU;
            // an imported trace may have kept only some of its off-CPU intervals.
            if (!model.session.imported() && !model.offcpu_by_thread[t].empty()) {
                out_.own_compute.push_back(CauseKey{.kind = CauseKind::kOwnCompute,
                                                    .process_index = model.threads[t].process_index,
                                                    .thread_index = primary.thread_index});
            } else {
                out_.own_compute.emplace_back();
            }
        }
        out_.own_compute_ns.resize(threads_);
        for (auto& list : out_.in_calls) {
            list.resize(threads_);
        }
        out_.cold_calls.resize(threads_);
        out_.pinning_saves.resize(threads_);
    }

    void blame(const CauseKey& key, std::size_t q, std::int64_t start_ns, std::int64_t end_ns,
               double weight = 1.0) {
        if (end_ns <= start_ns) {
            return;
        }
        auto& per_thread = out_.by_cause[key];
        per_thread.resize(threads_);
        per_thread[q].push_back({start_ns, end_ns, weight});
    }

    // Preempted and run-queue pieces, in calls or between them.
    void blame_cpu_taken(Piece piece, std::size_t q, std::int64_t from, std::int64_t to,
                         const OffCpuInterval* o) {
        if (piece == Piece::kPreempted) {
            blame(competitor_cause(model_, roles_, o->next_thread_index), q, from, to);
        } else if (piece == Piece::kRunQueue) {
            for (const auto& [key, share] : runq_shares_) {
                blame(key, q, from, to, share);
            }
        }
    }

    void gap(std::size_t q, const std::vector<OffCpuInterval>& intervals, std::size_t& next,
             std::int64_t start_ns, std::int64_t end_ns) {
        walk_gap(
            model_, roles_, intervals, next, start_ns, end_ns,
            [&](const CauseKey& key, std::int64_t from, std::int64_t to) {
                blame(key, q, from, to);
            },
            [&](const std::optional<CauseKey>& receiving, std::int64_t from, std::int64_t to) {
                if (receiving) {
                    blame(*receiving, q, from, to);
                } else if (const std::optional<CauseKey>& own = out_.own_compute[q]) {
                    add_to(out_.own_compute_ns[q], to - from);
                    if (every_category_) {
                        blame(*own, q, from, to);
                    }
                }
            },
            [&](Piece piece, std::int64_t from, std::int64_t to, const OffCpuInterval* o) {
                blame_cpu_taken(piece, q, from, to, o);
            });
    }

    // `pinning_saves`: the share of the call's own time that pinned memory would save (0: none).
    void call(std::size_t q, const std::vector<OffCpuInterval>& intervals, std::size_t& next,
              std::int64_t start_ns, std::int64_t end_ns, OpCategory category,
              double pinning_saves) {
        auto& own = out_.in_calls[static_cast<std::size_t>(category)][q];
        const bool kept = every_category_ || costed_category(category);
        split(intervals, next, start_ns, end_ns,
              [&](Piece piece, std::int64_t from, std::int64_t to, const OffCpuInterval* o) {
                  if (piece == Piece::kOnCpu) {
                      if (kept && to > from) {
                          own.push_back({from, to, 1.0});
                          if (pinning_saves > 0) {
                              out_.pinning_saves[q].push_back({from, to, pinning_saves});
                          }
                      }
                  } else if (piece != Piece::kAsleep) {
                      blame_cpu_taken(piece, q, from, to, o);
                  }
              });
    }

  private:
    const TraceModel& model_;
    const Roles& roles_;
    std::size_t threads_;
    bool every_category_;
    CauseTimeline& out_;
    std::vector<std::pair<CauseKey, double>> runq_shares_;
};

// The excess of each slow first call over its op's median, as a share of the call, per primary
// thread.
void add_cold_calls(const TraceModel& model, const CallAccounting& acc, CauseTimeline& out) {
    std::vector<std::int64_t> p50_of_op(model.ops.size(), 0);
    for (const OpAccount& op : acc.ops) {
        p50_of_op[static_cast<std::size_t>(op.op_index)] = op.dur.p50_ns;
    }
    for (std::uint32_t call : acc.cold_calls) {
        for (std::size_t q = 0; q < acc.primary.size(); ++q) {
            if (acc.primary[q].thread_index != model.calls.thread_index[call]) {
                continue;
            }
            const std::int64_t dur = model.calls.dur_ns[call];
            const std::int64_t excess =
                dur - p50_of_op[static_cast<std::size_t>(model.calls.op_index[call])];
            if (dur > 0 && excess > 0) {
                out.cold_calls[q].push_back(
                    {model.calls.ts_ns[call], model.calls.end_ns(call),
                     static_cast<double>(excess) / static_cast<double>(dur)});
            }
        }
    }
}

// The share of call `i`'s time that a copy from pinned memory would not take: 0 unless it is a
// copy from or to pageable memory and the trace holds the GPU's link.
double pinning_saves(const TraceModel& model, std::uint32_t i) {
    const CudaCalls& c = model.calls;
    const auto op = static_cast<std::size_t>(c.op_index[i]);
    if (!model.session.gpu_link || model.ops[op].category != OpCategory::kCopy ||
        c.host_pinned[i] != 0 || c.bytes[i] <= 0 || c.dur_ns[i] <= 0) {
        return 0;
    }
    const double pinned_ns =
        static_cast<double>(kPinnedCopyLatencyNs) +
        static_cast<double>(c.bytes[i]) * 1e9 / model.session.gpu_link->pinned_copy_bytes_per_s();
    return std::clamp(1.0 - pinned_ns / static_cast<double>(c.dur_ns[i]), 0.0, 1.0);
}

}  // namespace

bool costed_category(OpCategory category) {
    return category == OpCategory::kCopy || category == OpCategory::kAlloc ||
           category == OpCategory::kFree;
}

CauseTimeline cause_timeline(const TraceModel& model, const Roles& roles,
                             const ResolvedFilter& filter, const CallAccounting& accounting,
                             const std::vector<Cause>& causes, bool every_category) {
    CauseTimeline out;
    TimelineBuilder builder(model, roles, accounting, causes, every_category, out);
    const CudaCalls& c = model.calls;
    for (std::size_t q = 0; q < accounting.primary.size(); ++q) {
        const int thread = accounting.primary[q].thread_index;
        const auto& intervals = model.offcpu_by_thread[static_cast<std::size_t>(thread)];
        std::size_t next = 0;
        std::int64_t previous_end = -1;
        for (std::uint32_t i : AccountedCalls(model, filter, thread)) {
            // As in the accounting: a call that starts before the previous return is measured
            // from that return.
            const CallStep step = step_to(c, i, previous_end);
            if (step.has_gap()) {
                builder.gap(q, intervals, next, step.gap_start_ns, step.gap_end_ns);
            }
            builder.call(q, intervals, next, step.start_ns, step.end_ns,
                         model.ops[static_cast<std::size_t>(c.op_index[i])].category,
                         pinning_saves(model, i));
            previous_end = step.end_ns;
        }
    }
    add_cold_calls(model, accounting, out);
    for (auto& [key, per_thread] : out.by_cause) {
        for (auto& list : per_thread) {
            normalise_intervals(list);
        }
    }
    for (auto& category : out.in_calls) {
        for (auto& list : category) {
            normalise_intervals(list);
        }
    }
    for (auto* per_thread : {&out.cold_calls, &out.pinning_saves}) {
        for (auto& list : *per_thread) {
            normalise_intervals(list);
        }
    }
    return out;
}

}  // namespace causeway::analysis
