/* Included by every Causeway BPF program: kernel types, libbpf helpers, the ABI, and the maps
 * that several skeletons share. A shared map is defined in each object that includes this file;
 * the collector creates it once and hands the same fd to every skeleton with bpf_map__reuse_fd
 * before load, so all programs see one filter and one per-thread state. */
#ifndef CAUSEWAY_COMMON_BPF_H
#define CAUSEWAY_COMMON_BPF_H

#include "vmlinux.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "bpf/causeway_abi.h"

/* Not in vmlinux.h (they are #defines in the kernel). */
#define CW_PF_EXITING 0x00000004 /* include/linux/sched.h: task is in do_exit() */
#define CW_SIGSTOP 19
#define CW_E2BIG 7 /* errno: the map is full */

/* key: tgid of a process in the traced tree; value: 1. The in-kernel filter, kept up to date by
 * the lifecycle programs (fork adds, process exit removes) and seeded by the collector. */
struct {
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, CW_MAX_TRACED_PROCESSES);
    __type(key, __u32);
    __type(value, __u8);
} traced_tgids SEC(".maps");

/* key: tid of a traced thread; value: its scheduling totals and current interval (sched.bpf.c
 * writes it; lifecycle.bpf.c sends the final totals and deletes the entry at thread exit). */
struct {
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, CW_MAX_TRACED_THREADS);
    __type(key, __u32);
    __type(value, struct cw_thread_sched);
} thread_sched SEC(".maps");

/* Losses of this skeleton; user space reads them through the skeleton's .bss. */
struct cw_kernel_counters counters;

static __always_inline bool cw_is_traced(__u32 tgid)
{
    return bpf_map_lookup_elem(&traced_tgids, &tgid) != NULL;
}

static __always_inline __u32 cw_current_tgid(void)
{
    return bpf_get_current_pid_tgid() >> 32;
}

/* Submits without waking user space; it polls on a short timeout, so a busy workload costs no
 * wake-up per event. */
#define CW_SUBMIT_QUIET(event) bpf_ringbuf_submit((event), BPF_RB_NO_WAKEUP)

#endif /* CAUSEWAY_COMMON_BPF_H */
