/* What a sleeping thread waits in and in which context it is woken: the two facts the scheduler
 * programs read beyond the tracepoint arguments. Kernel and architecture differences live here. */
#ifndef CAUSEWAY_SCHED_CONTEXT_BPF_H
#define CAUSEWAY_SCHED_CONTEXT_BPF_H

#include "bpf/common.bpf.h"

/* Interrupt nesting of each CPU, kept by the irq, softirq and hrtimer tracepoints (sched.bpf.c).
 * The kernel's own record of it, preempt_count, is a per-CPU variable that BPF cannot read on
 * every kernel: on x86 it moved into struct pcpu_hot and back, and without CONFIG_KALLSYMS_ALL
 * the verifier cannot resolve __preempt_count at all (as on these VMs). Counting entries and
 * exits works everywhere tp_btf does; an exit whose entry came before attachment is ignored, and
 * every context switch resets the count (cw_reset_irq_depth). */
struct cw_irq_depth {
    __u32 hardirq; /* device interrupt handlers and hrtimer callbacks being run */
    __u32 softirq; /* softirqs being served */
};

/* key: 0; value: this CPU's nesting (per-CPU). */
struct {
    __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, struct cw_irq_depth);
} irq_depth SEC(".maps");

static __always_inline struct cw_irq_depth *cw_this_cpu_irq_depth(void)
{
    __u32 zero = 0;
    return bpf_map_lookup_elem(&irq_depth, &zero);
}

/* A CPU never switches tasks inside an interrupt or a softirq, so its nesting is zero at every
 * context switch. Resetting it there bounds any drift to one scheduling period: an entry whose
 * exit came before the exit program was attached (the programs attach one by one) would otherwise
 * mark every later wakeup on that CPU as an interrupt's, for the whole recording. */
static __always_inline void cw_reset_irq_depth(void)
{
    struct cw_irq_depth *depth = cw_this_cpu_irq_depth();
    if (depth) {
        depth->hardirq = 0;
        depth->softirq = 0;
    }
}

/* Who is waking a task right now: an interrupt, a softirq, or the running task itself. */
static __always_inline __u8 cw_wake_context(void)
{
    struct cw_irq_depth *depth = cw_this_cpu_irq_depth();
    if (depth && depth->hardirq)
        return CW_WAKE_HARDIRQ;
    if (depth && depth->softirq)
        return CW_WAKE_SOFTIRQ;
    return CW_WAKE_TASK;
}

/* The system call a thread that is going to sleep is in: the number the entry code saved in its
 * user registers (orig_ax on x86-64, -1 when it entered the kernel another way). */
static __always_inline __s32 cw_sleeping_syscall(struct task_struct *task)
{
    struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(task);
    if (!regs)
        return CW_NO_SYSCALL;
#if defined(__TARGET_ARCH_x86)
    long nr = BPF_CORE_READ(regs, orig_ax);
#elif defined(__TARGET_ARCH_arm64)
    long nr = BPF_CORE_READ((struct user_pt_regs *)regs, regs[8]);
#else
    long nr = CW_NO_SYSCALL;
#endif
    return nr < 0 ? CW_NO_SYSCALL : (__s32)nr;
}

/* The futex word a thread sleeping in futex(2) waits on: the system call's first argument, from
 * its saved user registers; 0 when it sleeps in another call (or on another architecture). */
static __always_inline __u64 cw_futex_address(struct task_struct* task, __s32 syscall_nr) {
#if defined(__TARGET_ARCH_x86)
    const __s32 futex_nr = 202;
#elif defined(__TARGET_ARCH_arm64)
    const __s32 futex_nr = 98;
#else
    const __s32 futex_nr = -1;
#endif
    struct pt_regs* regs = (struct pt_regs*)bpf_task_pt_regs(task);
    if (syscall_nr != futex_nr || !regs)
        return 0;
#if defined(__TARGET_ARCH_x86)
    return BPF_CORE_READ(regs, di);
#elif defined(__TARGET_ARCH_arm64)
    return BPF_CORE_READ(regs, orig_x0);
#else
    return 0;
#endif
}

/* Whether a runnable task leaving its CPU was stopped by a CPU quota: its group, or a group
 * above it, had used its CFS bandwidth for the period. throttle_cfs_rq() counts a throttled
 * group and all its descendants in throttle_count, before the switch (in pick_next_task on older
 * kernels, on the way back to user space with the task-based throttling of 6.18), so the task's
 * own cfs_rq says it at sched_switch. Kernels without group scheduling or bandwidth control
 * cannot throttle, and say no. */
static __always_inline bool cw_task_throttled(struct task_struct *task)
{
    if (!bpf_core_field_exists(task->se.cfs_rq))
        return false;
    struct cfs_rq *cfs_rq = BPF_CORE_READ(task, se.cfs_rq);
    if (!cfs_rq || !bpf_core_field_exists(cfs_rq->throttle_count))
        return false;
    return BPF_CORE_READ(cfs_rq, throttle_count) > 0;
}

#endif /* CAUSEWAY_SCHED_CONTEXT_BPF_H */
