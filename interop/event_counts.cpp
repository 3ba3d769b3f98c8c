#include "interop/event_counts.hpp"

#include <algorithm>

namespace causeway::interop {

void EventCounts::add_event(std::int64_t ts_ns, const std::optional<TaskKey>& process,
                            const IngeroOpInfo& op, std::int64_t dur_ns, std::int64_t arg0,
                            bool recorded) {
    ops_.try_emplace(op.event, op);
    Cell& cell = cells_[{ts_ns - ts_ns % kBucketNs, process, op.event}];
    ++cell.events;
    cell.event_dur_sum += dur_ns;
    cell.event_dur_max = std::max(cell.event_dur_max, dur_ns);
    cell.event_arg0_sum += arg0;
    cell.records += recorded ? 1 : 0;
}

void EventCounts::add_aggregate(std::int64_t bucket_ns, const std::optional<TaskKey>& process,
                                const IngeroOpInfo& op, std::int64_t count, std::int64_t stored,
                                std::int64_t sum_dur_ns, std::int64_t max_dur_ns,
                                std::int64_t sum_arg0) {
    ops_.try_emplace(op.event, op);
    // Several Ingero pids (threads of one process) can add to one cell.
    Cell& cell = cells_[{bucket_ns, process, op.event}];
    cell.has_aggregate = true;
    cell.agg_count += count;
    cell.agg_stored += stored;
    cell.agg_dur_sum += sum_dur_ns;
    cell.agg_dur_max = std::max(cell.agg_dur_max, max_dur_ns);
    cell.agg_arg0_sum += sum_arg0;
}

MergedCount EventCounts::merge(const Cell& cell) {
    // The two sources do not always agree (the events table can hold more rows than the
    // aggregate counted): the larger number is the lower bound of what happened.
    MergedCount merged;
    merged.count = std::max(cell.agg_count, cell.events);
    merged.records = cell.records;
    std::int64_t max_dur = std::max(cell.agg_dur_max, cell.event_dur_max);
    if (max_dur > 0) {
        merged.total_dur_ns = std::max(cell.agg_dur_sum, cell.event_dur_sum);
        merged.max_dur_ns = max_dur;
    }
    merged.arg0_sum = std::max(cell.agg_arg0_sum, cell.event_arg0_sum);
    merged.from_aggregate = cell.has_aggregate;
    return merged;
}

void EventCounts::for_each(
    const std::function<void(const CountKey&, const MergedCount&)>& visit) const {
    for (const auto& [key, cell] : cells_) {
        visit(key, merge(cell));
    }
}

std::map<std::string, EventTotals> EventCounts::totals() const {
    std::map<std::string, EventTotals> totals;
    for (const auto& [key, cell] : cells_) {
        auto merged = merge(cell);
        auto& total = totals[key.event];
        total.op = ops_.at(key.event);
        total.count += merged.count;
        total.records += merged.records;
        if (merged.count > merged.records) {
            total.processes_with_counts_only.insert(key.process);
        }
    }
    return totals;
}

std::int64_t EventCounts::disagreements() const {
    return std::count_if(cells_.begin(), cells_.end(), [](const auto& entry) {
        return entry.second.has_aggregate && entry.second.events > entry.second.agg_stored;
    });
}

}  // namespace causeway::interop
