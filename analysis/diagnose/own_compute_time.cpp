#include "analysis/diagnose/own_compute_time.hpp"

#include <algorithm>
#include <limits>
#include <optional>

#include "analysis/diagnose/thread_pieces.hpp"

namespace causeway::analysis {

OwnComputeTime::OwnComputeTime(const TraceModel& model, const Roles& roles,
                               const ResolvedFilter& filter, int thread_index)
    : model_(model),
      roles_(roles),
      intervals_(model.offcpu_by_thread[static_cast<std::size_t>(thread_index)]),
      calls_(model, filter, thread_index),
      at_(calls_.begin()),
      kept_from_ns_(std::numeric_limits<std::int64_t>::min()) {}

std::int64_t OwnComputeTime::own_walked_ns() const {
    if (pieces_.empty()) {
        return before_pieces_ns_;
    }
    const OwnPiece& last = pieces_.back();
    return last.before_ns + (last.to_ns - last.from_ns);
}

void OwnComputeTime::add_piece(std::int64_t from_ns, std::int64_t to_ns) {
    if (pieces_.size() == kPiecesKept) {
        constexpr std::size_t kLetGo = kPiecesKept / 2;
        before_pieces_ns_ = pieces_[kLetGo].before_ns;
        kept_from_ns_ = pieces_[kLetGo - 1].to_ns;
        pieces_.erase(pieces_.begin(), pieces_.begin() + kLetGo);
        cursor_ = cursor_ > kLetGo ? cursor_ - kLetGo : 0;
    }
    const std::int64_t before_ns = own_walked_ns();
    pieces_.push_back({from_ns, to_ns, before_ns});
}

void OwnComputeTime::walk_call() {
    if (calls_walked_ == checkpoints_.size() * kCallsPerCheckpoint) {
        checkpoints_.push_back(
            {previous_end_ns_, at_, next_offcpu_, own_walked_ns(), calls_walked_});
    }
    // The gaps of cause_timeline (cause_time.cpp): from the previous call's return to this one.
    const CallStep step = step_to(model_.calls, *at_, previous_end_ns_);
    if (step.has_gap()) {
        walk_gap(
            model_, roles_, intervals_, next_offcpu_, step.gap_start_ns, step.gap_end_ns,
            [](const CauseKey&, std::int64_t, std::int64_t) {},
            [&](const std::optional<CauseKey>& receiving, std::int64_t from, std::int64_t to) {
                if (!receiving) {
                    add_piece(from, to);
                }
            },
            [](Piece, std::int64_t, std::int64_t, const OffCpuInterval*) {});
    }
    previous_end_ns_ = step.end_ns;
    ++at_;
    ++calls_walked_;
}

void OwnComputeTime::restart(std::int64_t ts_ns) {
    auto after =
        std::partition_point(checkpoints_.begin(), checkpoints_.end(),
                             [ts_ns](const Checkpoint& c) { return c.previous_end_ns <= ts_ns; });
    const Checkpoint& from = after == checkpoints_.begin() ? checkpoints_.front() : *(after - 1);
    previous_end_ns_ = from.previous_end_ns;
    at_ = from.call;
    next_offcpu_ = from.next_offcpu;
    calls_walked_ = from.calls_walked;
    before_pieces_ns_ = from.own_before_ns;
    kept_from_ns_ = from.previous_end_ns;
    pieces_.clear();
    cursor_ = 0;
}

double OwnComputeTime::before(std::int64_t ts_ns) {
    if (ts_ns < kept_from_ns_) {
        restart(ts_ns);
    }
    // Every piece that starts before ts_ns is walked once the last return walked is at or past
    // it: the next gap starts there.
    while (at_ != calls_.end() && previous_end_ns_ < ts_ns) {
        walk_call();
    }
    while (cursor_ < pieces_.size() && pieces_[cursor_].from_ns < ts_ns) {
        ++cursor_;
    }
    while (cursor_ > 0 && pieces_[cursor_ - 1].from_ns >= ts_ns) {
        --cursor_;
    }
    if (cursor_ == 0) {
        return static_cast<double>(before_pieces_ns_);
    }
    const OwnPiece& last = pieces_[cursor_ - 1];
    return static_cast<double>(last.before_ns + (std::min(ts_ns, last.to_ns) - last.from_ns));
}

}  // namespace causeway::analysis
