#include "analysis/compare/op_latency_change.hpp"

#include <algorithm>
#include <map>

namespace causeway::analysis {
namespace {

// Durations of the selected calls, by op name.
std::map<std::string, std::vector<std::int64_t>> durations_by_op(const TraceModel& model,
                                                                 const TraceFilter& filter) {
    const ResolvedFilter resolved(model, filter);
    std::vector<std::vector<std::int64_t>> by_index(model.ops.size());
    for (std::size_t call = 0; call < model.calls.size(); ++call) {
        if (resolved.call_selected(call)) {
            by_index[static_cast<std::size_t>(model.calls.op_index[call])].push_back(
                model.calls.dur_ns[call]);
        }
    }
    std::map<std::string, std::vector<std::int64_t>> by_name;
    for (std::size_t op = 0; op < model.ops.size(); ++op) {
        if (!by_index[op].empty()) {
            auto& merged = by_name[model.ops[op].name];
            merged.insert(merged.end(), by_index[op].begin(), by_index[op].end());
        }
    }
    return by_name;
}

Distribution summary_of(std::vector<std::int64_t> durations_ns) {
    return summarize(durations_ns);
}

}  // namespace

OpChanges op_latency_changes(const TraceModel& before, const TraceFilter& before_filter,
                             const TraceModel& after, const TraceFilter& after_filter) {
    const auto before_ops = durations_by_op(before, before_filter);
    const auto after_ops = durations_by_op(after, after_filter);
    OpChanges changes;
    for (const auto& [name, durations] : before_ops) {
        const auto match = after_ops.find(name);
        if (match == after_ops.end()) {
            changes.only_before.push_back(name);
            continue;
        }
        const OpInfo& info = before.ops[static_cast<std::size_t>(before.find_op(name))];
        OpLatencyChange change{.op = name,
                               .api = op_api_name(info.api),
                               .category = category_name(info.category),
                               .before = summary_of(durations),
                               .after = summary_of(match->second),
                               .shift = {}};
        change.shift.rank = mann_whitney(durations, match->second);
        changes.common.push_back(std::move(change));
    }
    for (const auto& [name, durations] : after_ops) {
        if (before_ops.count(name) == 0) {
            changes.only_after.push_back(name);
        }
    }
    std::stable_sort(
        changes.common.begin(), changes.common.end(),
        [](const auto& a, const auto& b) { return a.before.total_ns > b.before.total_ns; });
    return changes;
}

}  // namespace causeway::analysis
