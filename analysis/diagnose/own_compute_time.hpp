#pragma once
// A GPU-driving thread's own work between its calls (cause_time.hpp), read as a replay asks for
// it (critical_path.hpp) instead of held: it is an interval per gap between calls, the largest
// list of a 100M-call trace (96M intervals, 0.77 GB). The gaps are walked again, a call at a
// time, as the replay's moments move on; the pieces of the last few thousand gaps are kept for the
// moments it steps back to, and every kCallsPerCheckpoint calls the walk's state is, to take it
// up again from further back.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "analysis/diagnose/actor_causes.hpp"
#include "analysis/measure/critical_path.hpp"
#include "analysis/model/accounted_calls.hpp"
#include "analysis/model/trace_filter.hpp"
#include "analysis/model/trace_model.hpp"

namespace causeway::analysis {

class OwnComputeTime final : public RemovedTimeSource {
  public:
    // The own work of `thread_index`'s accounted calls in `filter` (its scheduling recorded).
    OwnComputeTime(const TraceModel& model, const Roles& roles, const ResolvedFilter& filter,
                   int thread_index);

    // The thread's own work in [0, ts_ns), in ns (exact: a sum of whole nanoseconds).
    double before(std::int64_t ts_ns) override;

  private:
    static constexpr std::size_t kCallsPerCheckpoint = 1024;
    static constexpr std::size_t kPiecesKept = 8192;  // then the older half is let go

    struct OwnPiece {
        std::int64_t from_ns = 0;
        std::int64_t to_ns = 0;
        std::int64_t before_ns = 0;  // the own work before it
    };
    // The walk's state before a call: every piece before `previous_end_ns` is in `own_before_ns`.
    struct Checkpoint {
        std::int64_t previous_end_ns = 0;
        AccountedCalls::iterator call;
        std::size_t next_offcpu = 0;
        std::int64_t own_before_ns = 0;
        std::size_t calls_walked = 0;
    };

    // The next call, and the gap before it.
    void walk_call();
    void add_piece(std::int64_t from_ns, std::int64_t to_ns);
    // The own work of every piece walked.
    std::int64_t own_walked_ns() const;
    // Takes the walk up again from the last checkpoint at or before `ts_ns`.
    void restart(std::int64_t ts_ns);

    const TraceModel& model_;
    const Roles& roles_;
    const std::vector<OffCpuInterval>& intervals_;
    AccountedCalls calls_;
    AccountedCalls::iterator at_;  // the next call to walk
    std::size_t next_offcpu_ = 0;
    std::int64_t previous_end_ns_ = -1;  // the return of the last call walked; -1: none yet
    std::size_t calls_walked_ = 0;
    std::vector<Checkpoint> checkpoints_;
    std::vector<OwnPiece> pieces_;       // the last ones walked, in time order
    std::int64_t before_pieces_ns_ = 0;  // the own work before pieces_
    // The earliest moment answered from pieces_ (the end of the last piece let go).
    std::int64_t kept_from_ns_;
    std::size_t cursor_ = 0;  // the first of pieces_ that starts at or after the last moment asked
};

}  // namespace causeway::analysis
