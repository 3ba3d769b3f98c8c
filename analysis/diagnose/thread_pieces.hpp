#pragma once
// One GPU-driving thread's time cut into pieces along its off-CPU intervals, and whose each piece
// of a gap between its calls is (cause_time.hpp): read by the causes' timelines as they are
// built, and by the thread's own work as a replay reads it (own_compute_time.hpp).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/diagnose/actor_causes.hpp"
#include "analysis/model/trace_model.hpp"

namespace causeway::analysis {

enum class Piece { kOnCpu, kPreempted, kAsleep, kRunQueue };

// Cuts [start_ns, end_ns) of one thread into on-CPU, preempted, asleep and run-queue pieces
// along its off-CPU intervals; `next` walks them forward across calls to this.
template <class OnPiece>
void split(const std::vector<OffCpuInterval>& intervals, std::size_t& next, std::int64_t start_ns,
           std::int64_t end_ns, OnPiece on_piece) {
    while (next < intervals.size() && intervals[next].end_ns() <= start_ns) {
        ++next;
    }
    std::int64_t at = start_ns;
    for (std::size_t i = next; i < intervals.size() && intervals[i].ts_ns < end_ns; ++i) {
        const OffCpuInterval& o = intervals[i];
        const std::int64_t from = std::max(start_ns, o.ts_ns);
        const std::int64_t to = std::min(end_ns, o.end_ns());
        if (from > at) {
            on_piece(Piece::kOnCpu, at, from, nullptr);
        }
        if (o.preempted) {
            on_piece(Piece::kPreempted, from, to, &o);
        } else {
            const std::int64_t woken = std::clamp(o.woken_ns(), from, to);
            on_piece(Piece::kAsleep, from, woken, &o);
            on_piece(Piece::kRunQueue, woken, to, &o);
        }
        at = std::max(at, to);
    }
    if (end_ns > at) {
        on_piece(Piece::kOnCpu, at, end_ns, nullptr);
    }
}

// The pieces of a gap between calls, [start_ns, end_ns), with what each is:
//  * on_sleep(cause, from, to): asleep, until the cause that ended the sleep woke it;
//  * on_cpu(receiving, from, to): on a CPU, receiving the batch of the DataLoader workers
//    `receiving` after a sleep they ended, or (nullopt) the thread's own work;
//  * on_taken(piece, from, to, interval): preempted, or in the run queue after a sleep.
template <class OnSleep, class OnCpu, class OnTaken>
void walk_gap(const TraceModel& model, const Roles& roles,
              const std::vector<OffCpuInterval>& intervals, std::size_t& next,
              std::int64_t start_ns, std::int64_t end_ns, OnSleep on_sleep, OnCpu on_cpu,
              OnTaken on_taken) {
    std::optional<CauseKey> receiving;
    split(intervals, next, start_ns, end_ns,
          [&](Piece piece, std::int64_t from, std::int64_t to, const OffCpuInterval* o) {
              if (piece == Piece::kAsleep) {
                  const CauseKey key = sleep_cause(model, roles, *o);
                  on_sleep(key, from, to);
                  if (key.kind == CauseKind::kDataLoaderWorkers) {
                      receiving = key;
                  }
              } else if (piece == Piece::kOnCpu) {
                  on_cpu(receiving, from, to);
              } else {
                  on_taken(piece, from, to, o);
              }
          });
}

}  // namespace causeway::analysis
