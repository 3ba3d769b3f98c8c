// SPDX-License-Identifier: GPL-2.0
/* The traced process tree, followed in the kernel so no fork races user space: fork adds the
 * child to traced_tgids, process exit removes it. Thread creation, exec, exit and renames are
 * streamed for the names and identities in the trace. The dynamic loader's link-map hook stops a
 * traced process after a dlopen until the collector has attached to any new CUDA library. */
#include "bpf/common.bpf.h"
#include "bpf/open_calls.bpf.h"
#include "bpf/python_process.bpf.h"

/* 1: stop a traced process with SIGSTOP at each link-map change (late dlopen catching). */
const volatile bool stop_on_loader = true;

/* key: tgid of a traced process this program stopped at a link-map change; value: 1. The
 * collector deletes the entry before it sends SIGCONT. What is left when the collector dies is
 * what its guard (collector/attach/loader_stop_guard.hpp) continues: only stops this program made. */
struct {
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, CW_MAX_TRACED_PROCESSES);
    __type(key, __u32);
    __type(value, __u8);
} loader_stopped SEC(".maps");

/* Lifecycle events (struct cw_life_event). Rare, so each one wakes user space. */
struct {
    __uint(type, BPF_MAP_TYPE_RINGBUF);
    __uint(max_entries, 4 << 20);
} life_events SEC(".maps");

static struct cw_life_event *reserve_event(__u32 kind, struct task_struct *task)
{
    struct cw_life_event *event = bpf_ringbuf_reserve(&life_events, sizeof(*event), 0);
    if (!event) {
        __sync_fetch_and_add(&counters.ringbuf_drops, 1);
        return NULL;
    }
    __builtin_memset(event, 0, sizeof(*event));
    event->ts_ns = bpf_ktime_get_ns();
    event->kind = kind;
    event->tid = task->pid;
    event->tgid = task->tgid;
    bpf_probe_read_kernel(event->comm, sizeof(event->comm), task->comm);
    return event;
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(cw_process_fork, struct task_struct *parent, struct task_struct *child)
{
    if (!cw_is_traced(parent->tgid))
        return 0;
    bool new_process = child->pid == child->tgid;
    if (new_process) {
        __u32 tgid = child->tgid;
        __u8 one = 1;
        if (bpf_map_update_elem(&traced_tgids, &tgid, &one, BPF_ANY) != 0)
            __sync_fetch_and_add(&counters.map_full, 1);
        /* A forked child runs the parent's interpreter at the same addresses. */
        __u32 parent_tgid = parent->tgid;
        struct cw_python_process *python = bpf_map_lookup_elem(&python_procs, &parent_tgid);
        if (python && bpf_map_update_elem(&python_procs, &tgid, python, BPF_ANY) != 0)
            __sync_fetch_and_add(&counters.map_full, 1);
    }
    struct cw_life_event *event = reserve_event(new_process ? CW_LIFE_FORK : CW_LIFE_THREAD, child);
    if (!event)
        return 0;
    event->ppid = parent->tgid;
    bpf_ringbuf_submit(event, 0);
    return 0;
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(cw_process_exec, struct task_struct *task, pid_t old_pid, struct linux_binprm *bprm)
{
    __u32 tgid = task->tgid;
    if (!cw_is_traced(tgid))
        return 0;
    /* A new program: user space looks for an interpreter in it again. */
    bpf_map_delete_elem(&python_procs, &tgid);
    struct cw_life_event *event = reserve_event(CW_LIFE_EXEC, task);
    if (!event)
        return 0;
    bpf_probe_read_kernel_str(event->path, sizeof(event->path), BPF_CORE_READ(bprm, filename));
    bpf_ringbuf_submit(event, 0);
    return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(cw_process_exit, struct task_struct *task, bool group_dead)
{
    __u32 tgid = task->tgid;
    if (!cw_is_traced(tgid))
        return 0;
    __u32 tid = task->pid;
    struct cw_life_event *event = reserve_event(CW_LIFE_EXIT, task);
    if (event) {
        event->exit_code = task->exit_code;
        event->group_dead = group_dead;
        struct cw_thread_sched *state = bpf_map_lookup_elem(&thread_sched, &tid);
        if (state) {
            event->totals = state->totals;
            /* It is on a CPU now: count the slice up to here. */
            if (state->switch_in_ns)
                event->totals.oncpu_ns += event->ts_ns - state->switch_in_ns;
            event->has_totals = 1;
        }
        bpf_ringbuf_submit(event, 0);
    }
    bpf_map_delete_elem(&thread_sched, &tid);
    cw_release_open_call_slot(((__u64)tgid << 32) | tid);
    if (group_dead) {
        bpf_map_delete_elem(&traced_tgids, &tgid);
        bpf_map_delete_elem(&python_procs, &tgid);
    }
    return 0;
}

SEC("tp_btf/task_rename")
int BPF_PROG(cw_task_rename, struct task_struct *task, const char *comm)
{
    if (!cw_is_traced(task->tgid))
        return 0;
    struct cw_life_event *event = reserve_event(CW_LIFE_RENAME, task);
    if (!event)
        return 0;
    bpf_probe_read_kernel_str(event->comm, sizeof(event->comm), comm);
    bpf_ringbuf_submit(event, 0);
    return 0;
}

/* Attached to the dynamic loader's _dl_debug_state, which it calls after each change of the link
 * map (dlopen, dlclose). The process is stopped before it returns to user space, so a CUDA call
 * right after dlopen cannot run before the collector has attached to the new library; the
 * collector sends SIGCONT when done (or its guard does, if it died first).
 *
 * The event is submitted last, once the SIGSTOP is queued: the collector's SIGCONT then always
 * comes after it and cancels it, delivered or not. Submitted first, the event could be handled
 * before the stop was sent, and the SIGCONT lost ahead of it left the process stopped for good.
 * It is reserved first, so a process is never stopped for an event that cannot be sent. */
SEC("uprobe")
int cw_loader_update(struct pt_regs *ctx)
{
    __u32 tgid = cw_current_tgid();
    if (!cw_is_traced(tgid))
        return 0;
    struct task_struct *task = bpf_get_current_task_btf();
    struct cw_life_event *event = reserve_event(CW_LIFE_LOADER, task);
    if (!event)
        return 0;
    if (stop_on_loader) {
        __u8 one = 1;
        /* Marked before the stop: a stop nobody can find again is never sent. */
        if (bpf_map_update_elem(&loader_stopped, &tgid, &one, BPF_ANY) == 0)
            bpf_send_signal(CW_SIGSTOP);
        else
            __sync_fetch_and_add(&counters.map_full, 1);
    }
    bpf_ringbuf_submit(event, 0);
    return 0;
}

char LICENSE[] SEC("license") = "GPL";
