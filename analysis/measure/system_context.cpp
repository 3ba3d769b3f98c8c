#include "analysis/measure/system_context.hpp"

#include <algorithm>

#include "analysis/model/saturating.hpp"

namespace causeway::analysis {
namespace {

struct TreeDemand {
    double runnable_ns = 0;   // wanting a CPU: running or waiting for one
    double preempted_ns = 0;  // of which preempted: its CPU taken by another task
};

// A thread that was never off a CPU long enough for an interval: its exact totals spread
// evenly over its life. Busy without a break (a worker alone on a CPU) counts as runnable
// throughout; asleep throughout counts as nothing.
void add_from_totals(const TraceModel& model, std::size_t t, const Intervals& merged,
                     TreeDemand& demand) {
    const auto& total = model.sched_by_thread[t];
    const ThreadInfo& thread = model.threads[t];
    std::int64_t start = thread.start_ns.value_or(0);
    std::int64_t end = thread.exit_ns.value_or(model.end_ns());
    if (!total || end <= start) {
        return;
    }
    auto life = static_cast<double>(end - start);
    auto alive = static_cast<double>(overlap_with(merged, start, end));
    auto preempted = static_cast<double>(total->preempted_ns);
    double runnable =
        std::min(static_cast<double>(total->oncpu_ns + total->runq_wait_ns) + preempted, life);
    demand.runnable_ns += alive * runnable / life;
    demand.preempted_ns += alive * std::min(preempted, life) / life;
}

// A thread counts from its start to its exit, or to its last recorded switch-in when it did
// not exit: a sleep that had not ended when the recording stopped is not stored, and counting
// it as running would make an idle thread look busy.
TreeDemand tree_demand(const TraceModel& model, const Intervals& merged) {
    TreeDemand demand;
    for (std::size_t t = 0; t < model.threads.size(); ++t) {
        if (!model.process_of_thread(static_cast<int>(t)).in_tree) {
            continue;
        }
        const auto& offcpu = model.offcpu_by_thread[t];
        if (offcpu.empty()) {
            add_from_totals(model, t, merged, demand);
            continue;
        }
        const ThreadInfo& thread = model.threads[t];
        std::int64_t last_switch_in = 0;
        std::int64_t asleep = 0;
        std::int64_t preempted = 0;
        for (const auto& o : offcpu) {
            last_switch_in = std::max(last_switch_in, o.end_ns());
            (o.preempted ? preempted : asleep) +=
                overlap_with(merged, o.ts_ns, o.preempted ? o.end_ns() : o.woken_ns());
        }
        std::int64_t alive = overlap_with(merged, thread.start_ns.value_or(0),
                                          thread.exit_ns.value_or(last_switch_in));
        demand.runnable_ns += static_cast<double>(std::max<std::int64_t>(alive - asleep, 0));
        demand.preempted_ns += static_cast<double>(preempted);
    }
    return demand;
}

}  // namespace

std::int64_t overlap_with(const Intervals& merged, std::int64_t start_ns, std::int64_t end_ns) {
    auto it = std::upper_bound(merged.begin(), merged.end(), start_ns,
                               [](std::int64_t ts, const auto& iv) { return ts < iv.second; });
    std::int64_t total = 0;
    for (; it != merged.end() && it->first < end_ns; ++it) {
        total += overlap_ns(it->first, it->second, start_ns, end_ns);
    }
    return total;
}

SystemContext context_during(const TraceModel& model, const Intervals& merged,
                             const TimeWindow& range) {
    SystemContext ctx;
    for (const auto& iv : merged) {
        add_to(ctx.covered_ns, iv.second - iv.first);
    }
    std::int64_t allocs_all = 0;
    double allocs_during = 0;
    std::int64_t bucket_ns = std::max<std::int64_t>(model.session.page_bucket_ns, 1);
    for (const auto& b : model.page_alloc) {
        if (b.process_index < 0 ||
            !model.processes[static_cast<std::size_t>(b.process_index)].in_tree) {
            continue;
        }
        if (range.contains(b.bucket_ns)) {
            add_to(allocs_all, b.count);
        }
        std::int64_t ov = overlap_with(merged, b.bucket_ns, b.bucket_ns + bucket_ns);
        allocs_during +=
            static_cast<double>(b.count) * static_cast<double>(ov) / static_cast<double>(bucket_ns);
    }
    if (range.dur_ns() > 0) {
        ctx.page_allocs_per_s_overall =
            static_cast<double>(allocs_all) * 1e9 / static_cast<double>(range.dur_ns());
    }
    if (ctx.covered_ns == 0) {
        return ctx;
    }
    double covered = static_cast<double>(ctx.covered_ns);
    ctx.page_allocs_per_s = allocs_during * 1e9 / covered;
    TreeDemand demand = tree_demand(model, merged);
    ctx.runnable_tree_threads = demand.runnable_ns / covered;
    ctx.tree_preempted_share =
        demand.runnable_ns > 0 ? demand.preempted_ns / demand.runnable_ns : 0;

    double weight_sum = 0;
    std::int64_t previous_ts = 0;
    for (const auto& s : model.snapshots) {
        // A snapshot describes the period since the previous one.
        auto ov = static_cast<double>(overlap_with(merged, previous_ts, s.ts_ns));
        previous_ts = s.ts_ns;
        if (ov <= 0) {
            continue;
        }
        ++ctx.snapshots;
        weight_sum += ov;
        ctx.cpu_busy_pct += s.cpu_busy_pct * ov;
        ctx.procs_running += static_cast<double>(s.procs_running) * ov;
    }
    if (weight_sum > 0) {
        ctx.cpu_busy_pct /= weight_sum;
        ctx.procs_running /= weight_sum;
    }
    return ctx;
}

}  // namespace causeway::analysis
