#include "analysis/measure/drain_periods.hpp"

#include "analysis/model/compact_column.hpp"

namespace causeway::analysis {
namespace {

using Aside = std::map<std::size_t, std::int64_t>;

// Keeps `value` as entry k of `aside` where it is kept aside, else drops any entry k.
void keep_aside(Aside& aside, std::size_t k, bool kept, std::int64_t value) {
    if (kept) {
        aside[k] = value;
    } else if (!aside.empty()) {
        aside.erase(k);
    }
}

}  // namespace

DrainPeriods::DrainPeriods(std::initializer_list<DrainPeriod> periods) {
    reserve(periods.size());
    for (const DrainPeriod& p : periods) {
        push_back(p);
    }
}

DrainPeriods::Stored DrainPeriods::store(std::size_t k, const DrainPeriod& period,
                                         std::uint32_t work_range) {
    Stored s{.drain_ns = period.drain_ns,
             .device_ns = period.device_ns,
             .entry_to_drain = narrow_distance(period.drain_entry_ns, period.drain_ns, kAside),
             .runnable = narrow_distance(0, period.drain_runnable_ns, kAside),
             .first_enqueue = period.first_enqueue,
             .enqueues = period.enqueues,
             .work_range = kOneWork,
             .waited = period.waited};
    keep_aside(entries_aside_, k, s.entry_to_drain == kAside, period.drain_entry_ns);
    keep_aside(runnable_aside_, k, s.runnable == kAside, period.drain_runnable_ns);
    if (!period.one_work()) {
        // A period that had a range keeps its slot; one that no longer has leaves it unread.
        if (work_range == kOneWork) {
            work_range = static_cast<std::uint32_t>(work_ranges_.size());
            work_ranges_.emplace_back();
        }
        work_ranges_[work_range] = {period.device_low_ns, period.device_high_ns};
        s.work_range = work_range;
    }
    return s;
}

void DrainPeriods::keep_start(std::size_t k, std::int64_t start_ns) {
    if (k == 0) {
        first_start_ns_ = start_ns;
        return;
    }
    keep_aside(starts_aside_, k, start_ns != stored_[k - 1].drain_ns, start_ns);
}

void DrainPeriods::push_back(const DrainPeriod& period) {
    const std::size_t k = stored_.size();
    stored_.push_back(store(k, period, kOneWork));
    keep_start(k, period.start_ns);
}

void DrainPeriods::set(std::size_t k, const DrainPeriod& period) {
    const bool before_another = k + 1 < stored_.size();
    const std::int64_t next_start_ns = before_another ? start_ns(k + 1) : 0;
    stored_[k] = store(k, period, stored_[k].work_range);
    keep_start(k, period.start_ns);
    if (before_another) {
        keep_start(k + 1, next_start_ns);
    }
}

}  // namespace causeway::analysis
