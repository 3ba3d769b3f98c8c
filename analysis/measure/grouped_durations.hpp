#pragma once
// The durations of a trace's calls, grouped by a small key (an op, a process's op) to summarise
// each group (distribution.hpp). The groups share one allocation of exactly the calls kept: they
// are counted first, then placed. Grown group by group, a 100M-call trace's durations took up to
// twice their size at the peak and were copied about twice on the way. Each is held in 32 bits
// (2.1 s): a group with a longer one is held again, whole, in 64.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include "analysis/measure/distribution.hpp"
#include "analysis/model/call_column.hpp"

namespace causeway::analysis {

class GroupedDurations {
  public:
    // group_of(i): the group (0 .. groups - 1) of call i, or a negative value to leave it out;
    // asked twice a call. duration_of(i): its duration, asked once a kept call.
    template <class GroupOf, class DurationOf>
    GroupedDurations(std::size_t groups, std::size_t calls, GroupOf group_of,
                     DurationOf duration_of)
        : groups_(groups) {
        for (std::size_t i = 0; i < calls; ++i) {
            if (auto g = group_of(i); g >= 0) {
                ++groups_[static_cast<std::size_t>(g)].count;
            }
        }
        std::size_t kept = 0;
        for (Group& group : groups_) {
            group.start = kept;
            kept += group.count;
        }
        narrow_.resize(kept);
        std::vector<std::size_t> placed(groups, 0);
        for (std::size_t i = 0; i < calls; ++i) {
            if (auto g = group_of(i); g >= 0) {
                const auto at = static_cast<std::size_t>(g);
                place(groups_[at], placed[at]++, duration_of(i));
            }
        }
    }

    bool empty(std::size_t g) const { return groups_[g].count == 0; }
    // Group g's summary; its durations are reordered.
    Distribution summarize(std::size_t g) {
        Group& group = groups_[g];
        if (group.wide) {
            return analysis::summarize(std::span<std::int64_t>(*group.wide));
        }
        return analysis::summarize(
            std::span<std::int32_t>(narrow_.data() + group.start, group.count));
    }

  private:
    struct Group {
        std::size_t start = 0;  // into narrow_
        std::size_t count = 0;
        // Every duration of the group, once one does not fit in 32 bits.
        std::optional<std::vector<std::int64_t>> wide;
    };

    // The k-th duration of `group`, in call order.
    void place(Group& group, std::size_t k, std::int64_t ns) {
        const bool fits = ns >= std::numeric_limits<std::int32_t>::min() &&
                          ns <= std::numeric_limits<std::int32_t>::max();
        if (!group.wide && fits) {
            narrow_[group.start + k] = static_cast<std::int32_t>(ns);
            return;
        }
        if (!group.wide) {
            const auto first = narrow_.begin() + static_cast<std::ptrdiff_t>(group.start);
            group.wide.emplace();
            group.wide->reserve(group.count);
            group.wide->assign(first, first + static_cast<std::ptrdiff_t>(k));
        }
        group.wide->push_back(ns);
    }

    std::vector<Group> groups_;
    std::vector<std::int32_t, UninitialisedAllocator<std::int32_t>> narrow_;
};

}  // namespace causeway::analysis
