#pragma once
// The durations of a trace's calls, grouped by a small key (an op, a process's op) to summarise
// each group (distribution.hpp). The groups share one allocation of exactly the calls kept: they
// are counted first, then placed. Grown group by group, a 100M-call trace's durations took up to
// twice their size at the peak and were copied about twice on the way.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "analysis/model/call_column.hpp"

namespace causeway::analysis {

class GroupedDurations {
  public:
    // group_of(i): the group (0 .. groups - 1) of call i, or a negative value to leave it out;
    // asked twice a call. duration_of(i): its duration, asked once a kept call.
    template <class GroupOf, class DurationOf>
    GroupedDurations(std::size_t groups, std::size_t calls, GroupOf group_of,
                     DurationOf duration_of)
        : start_(groups + 1, 0) {
        for (std::size_t i = 0; i < calls; ++i) {
            if (auto g = group_of(i); g >= 0) {
                ++start_[static_cast<std::size_t>(g) + 1];
            }
        }
        for (std::size_t g = 0; g < groups; ++g) {
            start_[g + 1] += start_[g];
        }
        durations_.resize(start_.back());
        std::vector<std::size_t> next(start_.begin(), start_.end() - 1);
        for (std::size_t i = 0; i < calls; ++i) {
            if (auto g = group_of(i); g >= 0) {
                durations_[next[static_cast<std::size_t>(g)]++] = duration_of(i);
            }
        }
    }

    // Group g's durations in call order, to reorder in place (summarize).
    std::span<std::int64_t> group(std::size_t g) {
        return {durations_.data() + start_[g], start_[g + 1] - start_[g]};
    }

  private:
    std::vector<std::size_t> start_;  // group g holds [start_[g], start_[g + 1])
    std::vector<std::int64_t, UninitialisedAllocator<std::int64_t>> durations_;
};

}  // namespace causeway::analysis
