// SPDX-License-Identifier: GPL-2.0
/* Scheduling of every thread of the traced tree: exact totals in thread_sched, and each off-CPU
 * interval at least offcpu_floor_ns long streamed with its reason, run-queue wait, CPU, the task
 * that got the CPU, and for a sleep what it slept in and who woke it. Filtered in the kernel: an
 * idle machine makes ~180k switches/s. */
#include "bpf/common.bpf.h"
#include "bpf/python_frames.bpf.h"
#include "bpf/sched_context.bpf.h"

/* Intervals shorter than this (ns) are only added to the totals. Set before load. */
const volatile __u64 offcpu_floor_ns = 50000;

/* Off-CPU intervals of traced threads (struct cw_offcpu). */
struct {
    __uint(type, BPF_MAP_TYPE_RINGBUF);
    __uint(max_entries, 8 << 20);
} sched_events SEC(".maps");

/* Least time (ns) between two switch-out walks of one thread's Python frames. Set before load. */
const volatile __u64 python_sample_gap_ns = 1000000;

/* Python stacks of GPU threads and their competitors at switch-out (struct cw_switch_stack). */
struct {
    __uint(type, BPF_MAP_TYPE_RINGBUF);
    __uint(max_entries, 1 << 20);
} stack_samples SEC(".maps");

static struct cw_thread_sched* thread_state(__u32 tid) {
    struct cw_thread_sched* state = bpf_map_lookup_elem(&thread_sched, &tid);
    if (state)
        return state;
    struct cw_thread_sched zero = {};
    if (bpf_map_update_elem(&thread_sched, &tid, &zero, BPF_NOEXIST) == -CW_E2BIG)
        __sync_fetch_and_add(&counters.map_full, 1);
    return bpf_map_lookup_elem(&thread_sched, &tid);
}

/* What a blocked thread waits for: the GIL when it sleeps on a futex inside its process's
 * _PyRuntime (the interpreter keeps the GIL's condition variable and mutex there); the interpreter
 * wakes such a waiter every switch interval (5 ms) to ask the holder to drop the GIL, and the
 * holder wakes it when it does. */
static __u8 waits_for(struct task_struct* prev, __s32 syscall_nr) {
    __u64 address = cw_futex_address(prev, syscall_nr);
    if (!address)
        return CW_WAITS_UNKNOWN;
    __u32 tgid = prev->tgid;
    const struct cw_python_process* proc = bpf_map_lookup_elem(&python_procs, &tgid);
    if (!proc || address < proc->runtime_addr || address - proc->runtime_addr >= proc->runtime_size)
        return CW_WAITS_UNKNOWN;
    return CW_WAITS_GIL;
}

/* A waker's sched_waking can come before the sleeper's own sched_switch: the sleeper has queued
 * itself on the futex and set its sleeping state, and is inside schedule() when the waker runs
 * try_to_wake_up() on another CPU (sched_waking fires only for a task in a sleeping state). A
 * wakeup at most this long before a blocked switch-out, since the thread last got its CPU, ended
 * the sleep that switch-out begins. (A GIL handover is often this fast.) */
#define CW_WAKE_BEFORE_SLEEP_NS 50000ULL

static void switch_out(struct task_struct* prev, struct task_struct* next, __u8 reason,
                       __u64 now) {
    /* An exiting thread's last switch would recreate the entry the exit handler just sent. */
    if (prev->flags & CW_PF_EXITING)
        return;
    struct cw_thread_sched* state = thread_state(prev->pid);
    if (!state)
        return;
    /* Already off its CPU: the kernel did not report the switch that gave it back (seen on one
     * VM, a CPU held off by its quota then given back). What it did since is lost. */
    if (state->switch_out_ns)
        __sync_fetch_and_add(&counters.unmatched_switches, 1);
    if (state->switch_in_ns)
        state->totals.oncpu_ns += now - state->switch_in_ns;
    bool woken_already = reason == CW_OFFCPU_BLOCKED && state->wakeup_ns > state->switch_in_ns &&
                         now - state->wakeup_ns <= CW_WAKE_BEFORE_SLEEP_NS;
    state->switch_in_ns = 0;
    state->switch_out_ns = now;
    if (woken_already) {
        state->wakeup_ns = now; /* runnable from the start: all of it is run-queue wait */
    } else {
        state->wakeup_ns = 0;
        state->wake_context = CW_WAKE_NONE;
        state->waker_tid = state->waker_tgid = 0;
    }
    state->reason = reason;
    if (reason != CW_OFFCPU_BLOCKED) {
        state->totals.involuntary_switches++;
        state->syscall_nr = CW_NO_SYSCALL;
        state->iowait = 0;
        state->waits_for = CW_WAITS_UNKNOWN;
    } else {
        state->totals.voluntary_switches++;
        state->syscall_nr = cw_sleeping_syscall(prev);
        state->iowait = BPF_CORE_READ_BITFIELD(prev, in_iowait);
        state->waits_for = waits_for(prev, state->syscall_nr);
    }
    state->cpu = bpf_get_smp_processor_id();
    state->next_tid = next->pid;
    state->next_tgid = next->tgid;
    bpf_probe_read_kernel(state->next_comm, sizeof(state->next_comm), next->comm);
}

static void emit_interval(const struct cw_thread_sched* state, __u32 tid, __u32 tgid,
                          __u64 switch_out_ns, __u64 dur_ns, __u64 runq_wait_ns) {
    struct cw_offcpu* event = bpf_ringbuf_reserve(&sched_events, sizeof(*event), 0);
    if (!event) {
        __sync_fetch_and_add(&counters.ringbuf_drops, 1);
        return;
    }
    event->ts_ns = switch_out_ns;
    event->dur_ns = dur_ns;
    event->runq_wait_ns = runq_wait_ns;
    event->tid = tid;
    event->tgid = tgid;
    event->next_tid = state->next_tid;
    event->next_tgid = state->next_tgid;
    event->cpu = state->cpu;
    event->waker_tid = state->waker_tid;
    event->waker_tgid = state->waker_tgid;
    event->syscall_nr = state->syscall_nr;
    event->reason = state->reason;
    event->wake_context = state->wake_context;
    event->iowait = state->iowait;
    event->waits_for = state->waits_for;
    __builtin_memset(event->pad, 0, sizeof(event->pad));
    __builtin_memcpy(event->next_comm, state->next_comm, sizeof(event->next_comm));
    __builtin_memcpy(event->waker_comm, state->waker_comm, sizeof(event->waker_comm));
    CW_SUBMIT_QUIET(event);
}

static void switch_in(struct task_struct* next, __u64 now) {
    __u32 tid = next->pid;
    struct cw_thread_sched* state = thread_state(tid);
    if (!state)
        return;
    __u64 out = state->switch_out_ns;
    /* Already on a CPU, and not on its way out (an exiting thread's switch-outs are not kept):
     * the kernel did not report the switch that took it off. */
    if (!out && state->switch_in_ns && !(next->flags & CW_PF_EXITING))
        __sync_fetch_and_add(&counters.unmatched_switches, 1);
    state->switch_in_ns = now;
    state->switch_out_ns = 0;
    if (!out)
        return; /* first time seen: no interval to close */
    __u64 dur_ns = now - out;
    __u64 runq_wait_ns;
    if (state->reason != CW_OFFCPU_BLOCKED) {
        runq_wait_ns = dur_ns;
        state->totals.preempted_ns += dur_ns;
    } else {
        runq_wait_ns = state->wakeup_ns > out ? now - state->wakeup_ns : 0;
        state->totals.blocked_ns += dur_ns - runq_wait_ns;
        state->totals.runq_wait_ns += runq_wait_ns;
    }
    /* Every wait for the GIL, however short: the last one of a handover is the one the holder
     * ends, and names it. */
    if (dur_ns >= offcpu_floor_ns || state->waits_for == CW_WAITS_GIL)
        emit_interval(state, tid, next->tgid, out, dur_ns, runq_wait_ns);
}

/* The GPU thread a Python stack sample is about: the one whose CPU the sampled thread took, or
 * whose GIL wait it ended; none (tid 0) when it is a GPU thread's own. */
struct python_sample_about {
    __u64 gpu_switch_out_ns;
    __u32 gpu_tid;
    __u32 gpu_tgid;
    __u8 role;
    __u8 reason;
};

/* Walks the Python frames of `task`, the running thread, and sends them as a sample: at most once
 * per python_sample_gap_ns per thread for the switch-outs that leave it runnable, and as often
 * for those into a sleep, apart: a thread that yields in a spinning synchronisation would
 * otherwise hide the sleep right after it (where a rank waits for its input, or hangs). */
static void sample_python_stack(const struct cw_python_process* proc, struct cw_python_thread* pt,
                                struct task_struct* task, __u64 now,
                                const struct python_sample_about* about) {
    __u64* last = about->reason == CW_OFFCPU_BLOCKED ? &pt->last_sleep_walk_ns : &pt->last_walk_ns;
    if (now - *last < python_sample_gap_ns) {
        __sync_fetch_and_add(&python_counters.rate_limited, 1);
        return;
    }
    *last = now;
    __u32 key = cw_py_walk(proc, pt, task->pid);
    if (!key)
        return;
    struct cw_switch_stack* event = bpf_ringbuf_reserve(&stack_samples, sizeof(*event), 0);
    if (!event) {
        __sync_fetch_and_add(&python_counters.ringbuf_drops, 1);
        return;
    }
    event->ts_ns = now;
    event->gpu_switch_out_ns = about->gpu_switch_out_ns;
    event->tid = task->pid;
    event->tgid = task->tgid;
    event->gpu_tid = about->gpu_tid;
    event->gpu_tgid = about->gpu_tgid;
    event->python_stack = key;
    event->role = about->role;
    event->reason = about->reason;
    event->pad[0] = event->pad[1] = 0;
    CW_SUBMIT_QUIET(event);
}

/* Python frames at a switch-out, for the threads that matter: a thread that has made CUDA calls
 * (where its loop lost the CPU or went to sleep), and a thread leaving a CPU it took from one
 * (where the competitor was when it gave that CPU back: at sched_switch the running task is the
 * one leaving, so its frames can be read only then). A GPU thread that is preempted marks the
 * thread that got its CPU (not one that its quota stopped: that thread got an idle CPU). */
static void python_switch_out(struct task_struct* prev, struct task_struct* next, __u8 reason,
                              __u64 now) {
    const struct cw_python_process* proc;
    struct cw_python_thread* pt = cw_py_thread(prev, false, &proc);
    if (!pt)
        return;
    __u32 took_from_tid = pt->took_cpu_from_tid;
    if (took_from_tid || pt->drives_gpu) {
        struct python_sample_about about = {
            .gpu_switch_out_ns = took_from_tid ? pt->took_cpu_at_ns : 0,
            .gpu_tid = took_from_tid,
            .gpu_tgid = took_from_tid ? pt->took_cpu_from_tgid : 0,
            .role = took_from_tid ? CW_SWITCH_COMPETITOR : CW_SWITCH_GPU_THREAD,
            .reason = reason,
        };
        sample_python_stack(proc, pt, prev, now, &about);
        pt->took_cpu_from_tid = 0;
    }
    if (!pt->drives_gpu || reason != CW_OFFCPU_PREEMPTED || next->pid == 0 ||
        !cw_is_traced(next->tgid))
        return;
    const struct cw_python_process* next_proc;
    struct cw_python_thread* competitor = cw_py_thread(next, true, &next_proc);
    if (competitor) {
        competitor->took_cpu_from_tid = prev->pid;
        competitor->took_cpu_from_tgid = prev->tgid;
        competitor->took_cpu_at_ns = now;
    }
}

/* A thread of the same process wakes a GPU thread that waits for the GIL: it is handing the GIL
 * over (dropping it at the end of its switch interval, or before it blocks), so the line it runs
 * is what held the GPU thread off. */
static void python_gil_handover(struct task_struct* holder, struct task_struct* waiter,
                                __u64 waiter_switch_out_ns, __u64 now) {
    const struct cw_python_process* proc;
    struct cw_python_thread* gpu = cw_py_thread(waiter, false, &proc);
    if (!gpu || !gpu->drives_gpu || holder->tgid != waiter->tgid)
        return;
    struct cw_python_thread* pt = cw_py_thread(holder, true, &proc);
    if (!pt)
        return;
    struct python_sample_about about = {
        .gpu_switch_out_ns = waiter_switch_out_ns,
        .gpu_tid = waiter->pid,
        .gpu_tgid = waiter->tgid,
        .role = CW_SWITCH_GIL_HOLDER,
        .reason = CW_OFFCPU_BLOCKED,
    };
    sample_python_stack(proc, pt, holder, now, &about);
}

SEC("tp_btf/sched_switch")
int BPF_PROG(cw_sched_switch, bool preempt, struct task_struct* prev, struct task_struct* next,
             unsigned int prev_state) {
    __u64 now = bpf_ktime_get_ns();
    cw_reset_irq_depth();
    if (cw_is_traced(prev->tgid)) {
        /* TASK_RUNNING (0) at switch-out: it wanted to keep running, so it was preempted, or its
         * group's CPU quota stopped it. */
        __u8 reason = !preempt && prev_state != 0 ? CW_OFFCPU_BLOCKED
                      : cw_task_throttled(prev)   ? CW_OFFCPU_THROTTLED
                                                  : CW_OFFCPU_PREEMPTED;
        switch_out(prev, next, reason, now);
        if (walk_python)
            python_switch_out(prev, next, reason, now);
    }
    if (cw_is_traced(next->tgid))
        switch_in(next, now);
    return 0;
}

/* Records the wakeup of a traced thread and who woke it. Called where the waker runs:
 * sched_waking fires inside try_to_wake_up() on the waker's CPU, whereas sched_wakeup may fire
 * later on the target CPU (the remote wake list), where the running task is a bystander. */
static void on_wakeup(struct task_struct* task) {
    if (!cw_is_traced(task->tgid))
        return;
    struct cw_thread_sched* state = thread_state(task->pid);
    if (!state)
        return;
    state->wakeup_ns = bpf_ktime_get_ns();
    state->totals.wakeups++;
    state->wake_context = cw_wake_context();
    if (state->wake_context != CW_WAKE_TASK)
        return;
    struct task_struct* waker = bpf_get_current_task_btf();
    state->waker_tid = waker->pid;
    state->waker_tgid = waker->tgid;
    bpf_probe_read_kernel(state->waker_comm, sizeof(state->waker_comm), waker->comm);
    /* Only for a thread already off its CPU: one still on its way to sleep has not said yet
     * what it waits for. */
    if (walk_python && state->switch_out_ns && state->waits_for == CW_WAITS_GIL)
        python_gil_handover(waker, task, state->switch_out_ns, state->wakeup_ns);
}

SEC("tp_btf/sched_waking")
int BPF_PROG(cw_sched_waking, struct task_struct* task) {
    on_wakeup(task);
    return 0;
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(cw_sched_wakeup_new, struct task_struct* task) {
    on_wakeup(task);
    return 0;
}

/* Interrupt nesting for cw_wake_context(): a wakeup inside these is not the running task's. */
static __always_inline void irq_enter(bool hard) {
    struct cw_irq_depth* depth = cw_this_cpu_irq_depth();
    if (!depth)
        return;
    if (hard)
        depth->hardirq++;
    else
        depth->softirq++;
}

static __always_inline void irq_exit(bool hard) {
    struct cw_irq_depth* depth = cw_this_cpu_irq_depth();
    if (!depth)
        return;
    if (hard && depth->hardirq)
        depth->hardirq--;
    else if (!hard && depth->softirq)
        depth->softirq--;
}

SEC("tp_btf/irq_handler_entry")
int BPF_PROG(cw_irq_entry) {
    irq_enter(true);
    return 0;
}

SEC("tp_btf/irq_handler_exit")
int BPF_PROG(cw_irq_exit) {
    irq_exit(true);
    return 0;
}

/* Timer expiry (nanosleep, timed waits) runs hrtimer callbacks from the timer interrupt. */
SEC("tp_btf/hrtimer_expire_entry")
int BPF_PROG(cw_hrtimer_entry) {
    irq_enter(true);
    return 0;
}

SEC("tp_btf/hrtimer_expire_exit")
int BPF_PROG(cw_hrtimer_exit) {
    irq_exit(true);
    return 0;
}

SEC("tp_btf/softirq_entry")
int BPF_PROG(cw_softirq_entry) {
    irq_enter(false);
    return 0;
}

SEC("tp_btf/softirq_exit")
int BPF_PROG(cw_softirq_exit) {
    irq_exit(false);
    return 0;
}

char LICENSE[] SEC("license") = "GPL";
