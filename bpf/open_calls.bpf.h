/* The CUDA calls a thread has entered and not yet returned from: what the entry program saves
 * (the start, the arguments) for the return program to send. Calls nest (cudaMemcpy calls
 * cuMemcpy*), so each thread keeps a small stack, innermost last.
 *
 * A thread's stack lives in a slot of an array, found by its tid: an array lookup is inlined by
 * the verifier, where task storage costs a helper call at entry and at return. A slot belongs to
 * the first traced thread that takes it and is freed when that thread exits (the lifecycle
 * programs); a thread whose slot is held by another keeps its stack in task storage
 * (bpf/cuda.bpf.c) for its whole life. Shared by the cuda and lifecycle skeletons (created once
 * by the collector). */
#ifndef CAUSEWAY_OPEN_CALLS_BPF_H
#define CAUSEWAY_OPEN_CALLS_BPF_H

#include "bpf/common.bpf.h"

struct open_call {
    __u64 ts_ns;
    __u64 bytes;
    __u64 stream;
    __u64 host_addr;
    __u64 out_ptr; /* cudaMallocHost/cudaHostAlloc: where the returned pointer is written */
    __u16 op;
    __u8 copy_kind;
    __u8 flags;
    __s32 stack_id;
    __u32 python_stack; /* CW_PY_NO_STACK when not walked */
    __u32 pad;
    __u64 sp; /* the stack pointer at its entry */
    /* NCCL ops only (struct cw_nccl_call): set by save_nccl_arguments. */
    __u64 comm;
    __u64 count;
    __s32 peer;
    __s32 nranks;
    __u8 datatype;
    __u8 redop;
    __u8 pad2[6];
};

struct open_calls {
    struct open_call calls[CW_MAX_NESTING];
    __u32 depth;
};

struct open_call_slot {
    __u64 owner; /* the pid_tgid of the thread that holds it; 0: free */
    struct open_calls open;
};

/* key: a tid's low bits (CW_OPEN_CALL_SLOTS, bpf/causeway_abi.h); value: the open calls of the
 * thread that holds the slot. */
struct {
    __uint(type, BPF_MAP_TYPE_ARRAY);
    __uint(max_entries, CW_OPEN_CALL_SLOTS);
    __type(key, __u32);
    __type(value, struct open_call_slot);
} open_call_slots SEC(".maps");

/* The slot of the thread `id` (a pid_tgid), whoever holds it. */
static __always_inline struct open_call_slot *cw_open_call_slot(__u64 id)
{
    __u32 key = (__u32)id & (CW_OPEN_CALL_SLOTS - 1);
    return bpf_map_lookup_elem(&open_call_slots, &key);
}

/* Frees the slot of the exiting thread `id` if it holds it; what it left open is cleared by the
 * next thread that takes the slot (own_open_calls in bpf/cuda.bpf.c). The owner is read first so
 * that the exit of a thread that does not hold the slot leaves its cache line alone. */
static __always_inline void cw_release_open_call_slot(__u64 id)
{
    struct open_call_slot *slot = cw_open_call_slot(id);
    if (slot && slot->owner == id)
        __sync_val_compare_and_swap(&slot->owner, id, 0);
}

#endif /* CAUSEWAY_OPEN_CALLS_BPF_H */
