#include "analysis/measure/call_accounting.hpp"

#include <algorithm>
#include <future>
#include <span>
#include <utility>

#include "analysis/measure/grouped_durations.hpp"
#include "analysis/model/accounted_calls.hpp"
#include "analysis/model/saturating.hpp"

namespace causeway::analysis {
namespace {

bool accounted(const TraceModel& model, const ResolvedFilter& filter, std::uint32_t call) {
    return model.calls.enclosed[call] == 0 && filter.call_selected(call) &&
           model.process_of_thread(model.calls.thread_index[call]).in_tree;
}

std::vector<int> primary_threads(const TraceModel& model, const Roles& roles,
                                 const ResolvedFilter& filter) {
    std::vector<int> best_of_process(model.processes.size(), -1);
    std::int64_t busiest = 0;
    for (std::size_t t = 0; t < model.threads.size(); ++t) {
        int index = static_cast<int>(t);
        if (!filter.thread_selected(index) || !model.process_of_thread(index).in_tree) {
            continue;
        }
        std::int64_t ns = roles.cuda_ns_by_thread[t];
        int& best = best_of_process[static_cast<std::size_t>(model.threads[t].process_index)];
        if (ns > 0 && (best < 0 || ns > roles.cuda_ns_by_thread[static_cast<std::size_t>(best)])) {
            best = index;
        }
        busiest = std::max(busiest, ns);
    }
    std::vector<int> primary;
    // At least a quarter of the busiest (rounded up), without a product that a saturated sum
    // would overflow.
    std::int64_t quarter = busiest / 4 + (busiest % 4 != 0 ? 1 : 0);
    for (int t : best_of_process) {
        if (t >= 0 && roles.cuda_ns_by_thread[static_cast<std::size_t>(t)] >= quarter) {
            primary.push_back(t);
        }
    }
    return primary;
}

void compute_thresholds(const TraceModel& model, const ResolvedFilter& filter, CallAccounting& out,
                        std::vector<int>& account_of_op) {
    GroupedDurations durations(
        model.ops.size(), model.calls.size(),
        [&](std::size_t i) {
            auto call = static_cast<std::uint32_t>(i);
            return accounted(model, filter, call) ? int{model.calls.op_index[call]} : -1;
        },
        [&](std::size_t i) { return model.calls.dur_ns[i]; });
    account_of_op.assign(model.ops.size(), -1);
    for (std::size_t op = 0; op < model.ops.size(); ++op) {
        if (durations.empty(op)) {
            continue;
        }
        OpAccount account;
        account.op_index = static_cast<int>(op);
        account.dur = durations.summarize(op);
        account.threshold_ns =
            std::max(kSlowFactor * account.dur.p50_ns, account.dur.p50_ns + kSlowFloorNs);
        out.accounted_calls += account.dur.count;
        account_of_op[op] = static_cast<int>(out.ops.size());
        out.ops.push_back(account);
    }
}

// Every accounted call of the tree: slow-call evidence, first-call (cold) excess, copies.
void measure_calls(const TraceModel& model, const ResolvedFilter& filter, CallAccounting& out,
                   const std::vector<int>& account_of_op) {
    const CudaCalls& c = model.calls;
    for (std::size_t t = 0; t < model.threads.size(); ++t) {
        if (!model.process_of_thread(static_cast<int>(t)).in_tree) {
            continue;
        }
        OffCpuCursor cursor(model.offcpu_by_thread[t]);
        std::vector<std::uint8_t> seen_op(model.ops.size(), 0);
        for (std::uint32_t i : AccountedCalls(model, filter, static_cast<int>(t))) {
            auto op = static_cast<std::size_t>(c.op_index[i]);
            OpAccount& account = out.ops[static_cast<std::size_t>(account_of_op[op])];
            bool first = seen_op[op] == 0;
            seen_op[op] = 1;
            if (model.ops[op].category == OpCategory::kCopy) {
                std::int64_t bytes = std::max<std::int64_t>(c.bytes[i], 0);
                ++out.copy_calls;
                add_to(out.copy_bytes, bytes);
                add_to(out.pageable_copy_bytes, c.host_pinned[i] == 0 ? bytes : 0);
                out.small_copies += bytes < kSmallCopyBytes ? 1 : 0;
            }
            if (c.dur_ns[i] <= account.threshold_ns) {
                continue;
            }
            TimeSplit split = cursor.measure(c.ts_ns[i], c.end_ns(i), &out.competitors_slow);
            std::int64_t excess = c.dur_ns[i] - account.dur.p50_ns;
            ++account.slow_calls;
            add_to(account.slow_ns, c.dur_ns[i]);
            add_to(account.excess_ns, excess);
            account.slow_split.add(split);
            out.slow_split.add(split);
            add_to(out.slow_excess_ns, excess);
            out.slow_calls.push_back(i);
            if (first && !filter.windowed()) {
                add_to(out.cold_excess_ns, excess);
                out.cold_excess_by_category[static_cast<std::size_t>(model.ops[op].category)] +=
                    excess;
                out.cold_calls.push_back(i);
            }
        }
    }
}

ThreadAccount measure_primary(const TraceModel& model, const ResolvedFilter& filter, int thread,
                              CompetitorTime& competitors) {
    const CudaCalls& c = model.calls;
    ThreadAccount account;
    account.thread_index = thread;
    OffCpuCursor cursor(model.offcpu_by_thread[static_cast<std::size_t>(thread)]);
    std::int64_t previous_end = -1;
    // A primary thread is one of the tree's (primary_threads).
    for (std::uint32_t i : AccountedCalls(model, filter, thread)) {
        // A call that starts before the previous one returned (clock skew) is measured from
        // that return, so no time is counted twice.
        const CallStep step = step_to(c, i, previous_end);
        if (previous_end < 0) {
            account.span_start_ns = c.ts_ns[i];
        } else if (step.has_gap()) {
            TimeSplit gap = cursor.measure(step.gap_start_ns, step.gap_end_ns, &competitors,
                                           &account.gap_sleeps, thread);
            account.gaps.add(gap);
            if (gap.blocked_ns >= kLongWaitNs) {
                ++account.long_waits;
                add_to(account.long_wait_ns, gap.blocked_ns);
            }
        }
        TimeSplit in_call = cursor.measure(step.start_ns, step.end_ns, &competitors);
        account.in_calls.add(in_call);
        account
            .by_category[static_cast<std::size_t>(
                model.ops[static_cast<std::size_t>(c.op_index[i])].category)]
            .add(in_call);
        ++account.calls;
        previous_end = step.end_ns;
    }
    account.span_end_ns = std::max(previous_end, account.span_start_ns);
    return account;
}

std::vector<std::pair<std::int64_t, std::int64_t>> merged_intervals(
    const CudaCalls& c, const std::vector<std::uint32_t>& calls) {
    std::vector<std::pair<std::int64_t, std::int64_t>> intervals;
    intervals.reserve(calls.size());
    for (auto i : calls) {
        intervals.emplace_back(c.ts_ns[i], c.end_ns(i));
    }
    std::sort(intervals.begin(), intervals.end());
    std::vector<std::pair<std::int64_t, std::int64_t>> merged;
    for (const auto& iv : intervals) {
        if (!merged.empty() && iv.first <= merged.back().second) {
            merged.back().second = std::max(merged.back().second, iv.second);
        } else {
            merged.push_back(iv);
        }
    }
    return merged;
}

}  // namespace

CallAccounting account_calls(const TraceModel& model, const Roles& roles,
                             const ResolvedFilter& filter) {
    // The loops of the primary threads need nothing the thresholds or measure_calls compute:
    // they are measured beside both.
    auto primaries = std::async(std::launch::async, [&] {
        std::pair<std::vector<ThreadAccount>, CompetitorTime> accounts;
        for (int thread : primary_threads(model, roles, filter)) {
            accounts.first.push_back(measure_primary(model, filter, thread, accounts.second));
        }
        return accounts;
    });
    CallAccounting out;
    std::vector<int> account_of_op;
    compute_thresholds(model, filter, out, account_of_op);
    measure_calls(model, filter, out, account_of_op);
    auto [primary, competitors] = primaries.get();
    out.competitors_all = std::move(competitors);
    for (ThreadAccount& account : primary) {
        add_to(out.span_ns, account.span_ns());
        out.in_calls.add(account.in_calls);
        out.gaps.add(account.gaps);
        for (std::size_t k = 0; k < kCategoryCount; ++k) {
            out.by_category[k].add(account.by_category[k]);
        }
        out.primary.push_back(std::move(account));
    }
    std::sort(out.ops.begin(), out.ops.end(),
              [](const OpAccount& a, const OpAccount& b) { return a.excess_ns > b.excess_ns; });
    out.slow_intervals = merged_intervals(model.calls, out.slow_calls);
    return out;
}

}  // namespace causeway::analysis
