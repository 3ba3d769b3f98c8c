/* The traced processes whose CPython interpreter the kernel can read: where its state is and the
 * structure offsets of its version (struct cw_python_process). User space fills an entry when it
 * recognises an interpreter (collector/python/interpreter.cpp); the lifecycle programs copy it to
 * a forked child (same memory, same addresses: DataLoader workers) and drop it at exec and exit.
 * Shared by the lifecycle, sched and cuda skeletons (created once by the collector). */
#ifndef CAUSEWAY_PYTHON_PROCESS_BPF_H
#define CAUSEWAY_PYTHON_PROCESS_BPF_H

#include "bpf/common.bpf.h"

/* key: tgid; value: its interpreter's layout. */
struct {
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, CW_MAX_TRACED_PROCESSES);
    __type(key, __u32);
    __type(value, struct cw_python_process);
} python_procs SEC(".maps");

#endif /* CAUSEWAY_PYTHON_PROCESS_BPF_H */
