#pragma once
// The shape of get_per_process_breakdown (ProcessBreakdownAnswer).
// Each struct's describe() names its fields in order, with their descriptions: the JSON
// (write_json) and the tool output schemas (causeway-schemas) are both read from it
// (report/output_shape.hpp explains how).

#include <string>

#include "analysis/measure/process_breakdown.hpp"
#include "report/shapes/shared.hpp"
#include "report/tool_answers.hpp"

namespace causeway::analysis {

template <class V>
void describe(V& v, const ThreadRow& t) {
    v.field("tid", t.tid);
    v.field("comm", t.comm, {.description = kUntrustedDescription});
    v.field("role", std::string(role_name(t.role)), {.allowed_values = report::kRoleNames});
    v.field("cuda_calls", t.cuda_calls);
    v.field("cuda_ns", t.cuda_ns);
    v.field("sched", t.sched);
}

template <class V>
void describe(V& v, const OpBreakdown& op) {
    v.field("op", op.op);
    v.field("dur", op.dur);
}

template <class V>
void describe(V& v, const ProcessRow& p) {
    v.field("pid", p.pid);
    v.field("ppid", p.ppid);
    v.field("comm", p.comm, {.description = kUntrustedDescription});
    v.field("cmdline", p.cmdline, {.description = kUntrustedDescription});
    v.field("role", std::string(role_name(p.role)), {.allowed_values = report::kRoleNames});
    v.field("in_tree", p.in_tree);
    v.field("cgroup", p.cgroup, {.description = kCgroupDescription});
    v.field("container", p.container, {.description = kContainerDescription});
    v.field("start_ns", p.start_ns);
    v.field("exit_ns", p.exit_ns);
    v.field("exit_code", p.exit_code);
    v.field("lifetime_ns", p.lifetime_ns);
    v.field("thread_count", p.thread_count);
    v.field("cuda_calls", p.cuda_calls);
    v.field("cuda_ns", p.cuda_ns);
    v.field("cuda_ops", p.cuda_ops);
    v.field("sched", p.sched);
    v.field("cpu_taken_ns", p.cpu_taken_ns,
            {.description = "A competitor (outside the tree): how long traced threads were "
                            "runnable but not running after it preempted them (ns); only "
                            "competitors that took some CPU are listed. 0 in the tree."});
    v.field("page_allocs", p.page_allocs);
    v.field("page_alloc_bytes", p.page_alloc_bytes);
    v.field("forks", p.forks);
    v.field("threads", p.threads, {.presence = report::Presence::kWhenNotEmpty});
}

}  // namespace causeway::analysis

namespace causeway::report {

template <class V>
void describe(V& v, const ProcessBreakdownAnswer& answer) {
    v.object_description("Per-process breakdown.");
    v.field("trace", answer.trace, {.description = kTraceNameDescription});
    v.field("processes", answer.processes,
            {.description = "Training process first, then by CUDA time, then CPU time; threads "
                            "included when pid is given."});
    v.field("total_processes", answer.total_processes);
    v.field("offset", answer.offset);
    v.field("next_offset", answer.next_offset);
    v.field("range", answer.range);
    v.field("note", answer.note, {.description = kNoteDescription});
}

}  // namespace causeway::report
