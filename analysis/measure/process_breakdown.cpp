#include "analysis/measure/process_breakdown.hpp"

#include <algorithm>
#include <span>

#include "analysis/measure/cpu_takers.hpp"
#include "analysis/measure/grouped_durations.hpp"
#include "analysis/model/saturating.hpp"

namespace causeway::analysis {
namespace {

void add_thread_sched(const TraceModel& model, std::size_t thread, SchedBreakdown& out) {
    if (const auto& total = model.sched_by_thread[thread]) {
        add_sched_totals(*total, out);
    }
    for (const auto& o : model.offcpu_by_thread[thread]) {
        if (o.dur_ns > out.worst_stall_ns) {
            out.worst_stall_ns = o.dur_ns;
            out.worst_stall_reason = o.preempted ? "preempted" : "blocked";
            out.worst_stall_at_ns = o.ts_ns;
        }
    }
}

int sort_rank(Role role) {
    return role == Role::kTraining ? 0 : role == Role::kCompetitor ? 2 : 1;
}

}  // namespace

ProcessBreakdown process_breakdown(const TraceModel& model, const Roles& roles,
                                   const TraceFilter& filter, const BreakdownOptions& options) {
    ResolvedFilter selected(model, filter);
    const CudaCalls& c = model.calls;
    std::size_t op_count = model.ops.size();
    std::vector<std::int64_t> thread_calls(model.threads.size(), 0);
    std::vector<std::int64_t> thread_ns(model.threads.size(), 0);
    // Durations by [process * op_count + op], accounted calls only.
    GroupedDurations durations(
        model.processes.size() * op_count, c.size(),
        [&](std::size_t i) -> std::int64_t {
            if (c.enclosed[i] || !selected.call_selected(i)) {
                return -1;
            }
            const auto& thread = model.threads[static_cast<std::size_t>(c.thread_index[i])];
            return std::int64_t{thread.process_index} * static_cast<std::int64_t>(op_count) +
                   c.op_index[i];
        },
        [&](std::size_t i) {
            // Asked once a kept call: its thread's totals are counted here, in the same pass.
            auto thread = static_cast<std::size_t>(c.thread_index[i]);
            ++thread_calls[thread];
            add_to(thread_ns[thread], c.dur_ns[i]);
            return c.dur_ns[i];
        });
    std::vector<std::int64_t> children(model.processes.size(), 0);
    for (const auto& p : model.processes) {
        if (p.parent_index >= 0) {
            ++children[static_cast<std::size_t>(p.parent_index)];
        }
    }
    std::vector<std::int64_t> page_allocs(model.processes.size(), 0);
    std::vector<std::int64_t> page_bytes(model.processes.size(), 0);
    for (const auto& b : model.page_alloc) {
        if (b.process_index >= 0 && selected.window().contains(b.bucket_ns)) {
            add_to(page_allocs[static_cast<std::size_t>(b.process_index)], b.count);
            add_to(page_bytes[static_cast<std::size_t>(b.process_index)], b.bytes);
        }
    }
    std::vector<std::int64_t> cpu_taken = cpu_taken_by_process(model, selected);
    std::vector<ProcessRow> rows;
    for (std::size_t p = 0; p < model.processes.size(); ++p) {
        if (!selected.process_selected(static_cast<int>(p)) ||
            (!model.processes[p].in_tree && cpu_taken[p] == 0)) {
            continue;
        }
        const ProcessInfo& info = model.processes[p];
        ProcessRow row;
        row.pid = info.pid;
        row.ppid = info.parent_index >= 0
                       ? model.processes[static_cast<std::size_t>(info.parent_index)].pid
                       : info.ppid;
        row.comm = info.comm;
        row.cmdline = info.cmdline;
        row.role = roles.process[p];
        row.in_tree = info.in_tree;
        row.cgroup = info.cgroup;
        row.container = info.container;
        row.start_ns = info.start_ns;
        row.exit_ns = info.exit_ns;
        row.exit_code = info.exit_code;
        row.lifetime_ns = info.exit_ns.value_or(model.end_ns()) - info.start_ns.value_or(0);
        row.thread_count = static_cast<std::int64_t>(info.thread_indices.size());
        row.forks = children[p];
        for (std::size_t op = 0; op < op_count; ++op) {
            if (!durations.empty(p * op_count + op)) {
                row.cuda_ops.push_back(
                    {model.ops[op].name, durations.summarize(p * op_count + op)});
                row.cuda_calls += row.cuda_ops.back().dur.count;
                add_to(row.cuda_ns, row.cuda_ops.back().dur.total_ns);
            }
        }
        std::sort(row.cuda_ops.begin(), row.cuda_ops.end(),
                  [](const auto& a, const auto& b) { return a.dur.total_ns > b.dur.total_ns; });
        for (int t : info.thread_indices) {
            auto thread = static_cast<std::size_t>(t);
            add_thread_sched(model, thread, row.sched);
            if (options.include_threads) {
                ThreadRow tr;
                tr.tid = model.threads[thread].tid;
                tr.comm = model.threads[thread].comm;
                tr.role = roles.thread[thread];
                tr.cuda_calls = thread_calls[thread];
                tr.cuda_ns = thread_ns[thread];
                add_thread_sched(model, thread, tr.sched);
                row.threads.push_back(std::move(tr));
            }
        }
        row.cpu_taken_ns = cpu_taken[p];
        row.page_allocs = page_allocs[p];
        row.page_alloc_bytes = page_bytes[p];
        rows.push_back(std::move(row));
    }
    std::stable_sort(rows.begin(), rows.end(), [](const ProcessRow& a, const ProcessRow& b) {
        if (sort_rank(a.role) != sort_rank(b.role)) {
            return sort_rank(a.role) < sort_rank(b.role);
        }
        if (a.cuda_ns != b.cuda_ns) {
            return a.cuda_ns > b.cuda_ns;
        }
        return a.sched.oncpu_ns > b.sched.oncpu_ns;
    });
    ProcessBreakdown out;
    out.total_processes = static_cast<std::int64_t>(rows.size());
    if (options.max_processes > 0 && rows.size() > options.max_processes) {
        rows.resize(options.max_processes);
    }
    out.processes = std::move(rows);
    return out;
}

}  // namespace causeway::analysis
