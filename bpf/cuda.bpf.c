// SPDX-License-Identifier: GPL-2.0
/* CUDA runtime (libcudart) and driver (libcuda) calls of the traced processes: one uprobe and one
 * uretprobe per symbol, all sharing the two programs below. The op id is the attachment's
 * bpf_cookie. The entry saves the arguments among the thread's open calls (bpf/open_calls.bpf.h);
 * the return finds its call there by its stack frame and sends one record. */
#include "bpf/common.bpf.h"
#include "bpf/open_calls.bpf.h"
#include "bpf/python_frames.bpf.h"

/* 1: record the user stack of each call (--stacks; costs a frame-pointer walk per call). */
const volatile bool record_stacks = false;

/* key: stack id; value: CW_STACK_DEPTH return addresses. Shrunk to one entry when stacks are
 * not recorded. */
struct {
    __uint(type, BPF_MAP_TYPE_STACK_TRACE);
    __uint(max_entries, 16384);
    __uint(key_size, sizeof(__u32));
    __uint(value_size, CW_STACK_DEPTH * sizeof(__u64));
} user_stacks SEC(".maps");

/* Ring buffer of completed calls (struct cw_cuda_call). Sized by the collector before load. */
struct {
    __uint(type, BPF_MAP_TYPE_RINGBUF);
    __uint(max_entries, 32 << 20);
} cuda_events SEC(".maps");

/* key: the calling thread (task storage); value: its open CUDA calls, innermost last. Only for a
 * thread whose slot in open_call_slots another thread held when it first called. */
struct {
    __uint(type, BPF_MAP_TYPE_TASK_STORAGE);
    __uint(map_flags, BPF_F_NO_PREALLOC);
    __type(key, int);
    __type(value, struct open_calls);
} open_calls SEC(".maps");

/* The open calls of the calling thread `id` (its pid_tgid): its slot's, else its task storage's.
 * Only threads of traced processes hold either (tgids leave the tree only by exiting, and both
 * are freed with the thread), so finding one skips the filter lookup on the hot path. At the entry
 * of its first traced call (`at_entry`) a thread takes its slot if it is free, else task storage;
 * it keeps that place for life, so its open calls are always in one place. */
static __always_inline struct open_calls *own_open_calls(__u64 id, bool at_entry)
{
    struct open_call_slot *slot = cw_open_call_slot(id);
    if (!slot)
        return NULL;
    if (slot->owner == id)
        return &slot->open;
    struct task_struct *task = bpf_get_current_task_btf();
    struct open_calls *open = bpf_task_storage_get(&open_calls, task, 0, 0);
    if (open || !at_entry || !cw_is_traced(id >> 32))
        return open;
    if (__sync_val_compare_and_swap(&slot->owner, 0, id) == 0) {
        slot->open.depth = 0; /* whatever its last holder left open */
        return &slot->open;
    }
    open = bpf_task_storage_get(&open_calls, task, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
    if (!open)
        __sync_fetch_and_add(&counters.map_full, 1);
    return open;
}

/* The calling thread's Python stack when its process has a readable interpreter; marks the
 * thread as one that drives the GPU (its switch-outs are sampled, bpf/sched.bpf.c). */
static __always_inline __u32 python_stack_of_caller(struct task_struct *task)
{
    const struct cw_python_process *proc;
    struct cw_python_thread *pt = cw_py_thread(task, true, &proc);
    if (!pt)
        return CW_PY_NO_STACK;
    pt->drives_gpu = 1;
    return cw_py_walk(proc, pt, task->pid);
}

/* The sixth argument register; libbpf defines PT_REGS_PARM6 from 1.2 on (Debian 12 ships 1.1). */
#ifndef PT_REGS_PARM6
#if defined(__TARGET_ARCH_x86)
#define PT_REGS_PARM6(x) ((x)->r9)
#else
#error "PT_REGS_PARM6 is needed: build against libbpf 1.2 or later on this architecture"
#endif
#endif

/* The n-th stack-passed argument (1-based) at function entry: after the return address. */
static __always_inline __u64 stack_arg(struct pt_regs *ctx, int n)
{
    __u64 value = 0;
    bpf_probe_read_user(&value, sizeof(value), (void *)(PT_REGS_SP(ctx) + 8 * n));
    return value;
}

static __always_inline void set_copy(struct open_call *call, __u8 kind, __u64 dst, __u64 src,
                                     __u64 bytes)
{
    call->copy_kind = kind;
    call->bytes = bytes;
    call->flags |= CW_CALL_HAS_BYTES;
    if (kind == CW_COPY_HOST_TO_DEVICE) {
        call->host_addr = src;
        call->flags |= CW_CALL_HAS_ADDR;
    } else if (kind == CW_COPY_DEVICE_TO_HOST) {
        call->host_addr = dst;
        call->flags |= CW_CALL_HAS_ADDR;
    }
}

static __always_inline void set_stream(struct open_call *call, __u64 stream)
{
    call->stream = stream;
    call->flags |= CW_CALL_HAS_STREAM;
}

static __always_inline void set_bytes(struct open_call *call, __u64 bytes)
{
    call->bytes = bytes;
    call->flags |= CW_CALL_HAS_BYTES;
}

static __always_inline void set_nccl_data(struct open_call *call, __u64 count, __u64 datatype)
{
    call->count = count;
    call->datatype = datatype;
}

/* NCCL 2.28 prototypes (x86-64 SysV: the seventh and later arguments are on the stack; an
 * ncclUniqueId, 128 bytes by value, is passed in memory and takes no register). */
static __always_inline void save_nccl_arguments(struct pt_regs *ctx, struct open_call *call)
{
    __u64 p1 = PT_REGS_PARM1(ctx), p2 = PT_REGS_PARM2(ctx), p3 = PT_REGS_PARM3(ctx);
    __u64 p4 = PT_REGS_PARM4(ctx), p5 = PT_REGS_PARM5(ctx), p6 = PT_REGS_PARM6(ctx);
    call->comm = call->count = 0;
    call->peer = call->nranks = CW_NCCL_NONE;
    call->datatype = call->redop = 0;
    switch (call->op) {
    case CW_OP_ncclAllReduce:     /* (send, recv, count, datatype, op, comm, stream) */
    case CW_OP_ncclReduceScatter: /* (send, recv, recvcount, datatype, op, comm, stream) */
        set_nccl_data(call, p3, p4);
        call->redop = p5;
        call->comm = p6;
        set_stream(call, stack_arg(ctx, 1));
        break;
    case CW_OP_ncclAllGather: /* (send, recv, sendcount, datatype, comm, stream) */
        set_nccl_data(call, p3, p4);
        call->comm = p5;
        set_stream(call, p6);
        break;
    case CW_OP_ncclBroadcast: /* (send, recv, count, datatype, int root, comm, stream) */
        set_nccl_data(call, p3, p4);
        call->peer = p5;
        call->comm = p6;
        set_stream(call, stack_arg(ctx, 1));
        break;
    case CW_OP_ncclReduce: /* (send, recv, count, datatype, op, int root, comm, stream) */
        set_nccl_data(call, p3, p4);
        call->redop = p5;
        call->peer = p6;
        call->comm = stack_arg(ctx, 1);
        set_stream(call, stack_arg(ctx, 2));
        break;
    case CW_OP_ncclSend: /* (send, count, datatype, int peer, comm, stream) */
    case CW_OP_ncclRecv: /* (recv, count, datatype, int peer, comm, stream) */
        set_nccl_data(call, p2, p3);
        call->peer = p4;
        call->comm = p5;
        set_stream(call, p6);
        break;
    case CW_OP_ncclCommInitRank:       /* (ncclComm_t *comm, int nranks, ncclUniqueId, int rank) */
    case CW_OP_ncclCommInitRankConfig: /* (... int rank, ncclConfig_t *config) */
        call->out_ptr = p1;
        call->nranks = p2;
        call->peer = p3;
        break;
    case CW_OP_ncclCommInitAll: /* (ncclComm_t *comms, int ndev, const int *devlist) */
        call->out_ptr = p1;
        call->nranks = p2;
        break;
    case CW_OP_ncclCommSplit: /* (ncclComm_t comm, int color, int key, ncclComm_t *newcomm, ...) */
        call->peer = p2;
        call->out_ptr = p4;
        break;
    case CW_OP_ncclCommDestroy: /* (ncclComm_t comm) */
    case CW_OP_ncclCommAbort:   /* (ncclComm_t comm) */
        call->comm = p1;
        break;
    case CW_OP_ncclGetVersion: /* (int *version) */
        call->out_ptr = p1;
        break;
    default: /* GroupStart, GroupEnd: no arguments */
        break;
    }
}

/* Argument positions follow the CUDA 13 prototypes (x86-64 SysV: a dim3 takes two registers). */
static __always_inline void save_arguments(struct pt_regs *ctx, struct open_call *call)
{
    if (call->op >= CW_OP_NCCL_FIRST) {
        save_nccl_arguments(ctx, call);
        return;
    }
    __u64 p1 = PT_REGS_PARM1(ctx), p2 = PT_REGS_PARM2(ctx), p3 = PT_REGS_PARM3(ctx);
    __u64 p4 = PT_REGS_PARM4(ctx), p5 = PT_REGS_PARM5(ctx);
    switch (call->op) {
    case CW_OP_cudaMalloc:      /* (void **devPtr, size_t size) */
    case CW_OP_cuMemAlloc_v2:   /* (CUdeviceptr *dptr, size_t bytesize) */
        set_bytes(call, p2);
        break;
    case CW_OP_cudaMallocHost:  /* (void **ptr, size_t size) */
    case CW_OP_cudaHostAlloc:   /* (void **pHost, size_t size, unsigned int flags) */
        set_bytes(call, p2);
        call->out_ptr = p1;
        break;
    case CW_OP_cudaFreeHost:    /* (void *ptr) */
        call->host_addr = p1;
        call->flags |= CW_CALL_HAS_ADDR;
        break;
    case CW_OP_cudaMemcpy:      /* (void *dst, const void *src, size_t count, kind) */
        set_copy(call, p4, p1, p2, p3);
        break;
    case CW_OP_cudaMemcpyAsync: /* (dst, src, count, kind, cudaStream_t stream) */
        set_copy(call, p4, p1, p2, p3);
        set_stream(call, p5);
        break;
    case CW_OP_cudaLaunchKernel: /* (func, dim3 grid, dim3 block, args, size_t shmem, stream) */
        set_stream(call, stack_arg(ctx, 2));
        break;
    case CW_OP_cudaStreamSynchronize: /* (cudaStream_t stream) */
    case CW_OP_cuStreamSynchronize:   /* (CUstream hStream) */
        set_stream(call, p1);
        break;
    case CW_OP_cudaEventRecord: /* (cudaEvent_t event, cudaStream_t stream) */
    case CW_OP_cudaFreeAsync:   /* (void *devPtr, cudaStream_t stream) */
        set_stream(call, p2);
        break;
    case CW_OP_cudaMallocAsync: /* (void **devPtr, size_t size, cudaStream_t stream) */
        set_bytes(call, p2);
        set_stream(call, p3);
        break;
    case CW_OP_cuLaunchKernel: /* (f, gx, gy, gz, bx, by, bz, shmem, hStream, params, extra) */
        set_stream(call, stack_arg(ctx, 3));
        break;
    case CW_OP_cuMemcpyHtoD_v2: /* (CUdeviceptr dst, const void *src, size_t bytes) */
        set_copy(call, CW_COPY_HOST_TO_DEVICE, p1, p2, p3);
        break;
    case CW_OP_cuMemcpyDtoH_v2: /* (void *dst, CUdeviceptr src, size_t bytes) */
        set_copy(call, CW_COPY_DEVICE_TO_HOST, p1, p2, p3);
        break;
    case CW_OP_cuMemcpyHtoDAsync_v2: /* (dst, src, bytes, CUstream hStream) */
        set_copy(call, CW_COPY_HOST_TO_DEVICE, p1, p2, p3);
        set_stream(call, p4);
        break;
    case CW_OP_cuMemcpyDtoHAsync_v2: /* (dst, src, bytes, CUstream hStream) */
        set_copy(call, CW_COPY_DEVICE_TO_HOST, p1, p2, p3);
        set_stream(call, p4);
        break;
    default: /* cudaFree, cudaDeviceSynchronize, cudaEventSynchronize, cudaStreamCreate,
                cuMemFree_v2, cuCtxSynchronize: nothing the trace stores */
        break;
    }
}

SEC("uprobe")
int cw_cuda_entry(struct pt_regs *ctx)
{
    struct open_calls *open = own_open_calls(bpf_get_current_pid_tgid(), true);
    if (!open)
        return 0;
    /* A call open here encloses this one only if its frame is above this one's on the stack
     * (which grows down); one that is not lost its return (a longjmp out of it) and is dropped, so
     * that it is not taken for the caller of every later call. */
    const __u64 sp = PT_REGS_SP(ctx);
    for (int i = 0; i < CW_MAX_NESTING && open->depth > 0; i++) {
        if (open->calls[(open->depth - 1) & (CW_MAX_NESTING - 1)].sp > sp)
            break;
        open->depth--;
        __sync_fetch_and_add(&counters.entries_lost, 1);
    }
    __u32 depth = open->depth;
    if (depth >= CW_MAX_NESTING) {
        __sync_fetch_and_add(&counters.entries_lost, 1);
        return 0;
    }
    struct open_call *call = &open->calls[depth & (CW_MAX_NESTING - 1)];
    call->op = bpf_get_attach_cookie(ctx);
    call->sp = sp;
    call->copy_kind = CW_COPY_NONE;
    call->flags = 0;
    call->bytes = call->stream = call->host_addr = call->out_ptr = 0;
    save_arguments(ctx, call);
    call->stack_id = record_stacks ? bpf_get_stackid(ctx, &user_stacks, BPF_F_USER_STACK) : -1;
    /* A nested call (cudaMemcpy -> cuMemcpy*) runs under the same Python frames. */
    if (!walk_python)
        call->python_stack = CW_PY_NO_STACK;
    else if (depth > 0)
        call->python_stack = open->calls[(depth - 1) & (CW_MAX_NESTING - 1)].python_stack;
    else
        call->python_stack = python_stack_of_caller(bpf_get_current_task_btf());
    open->depth = depth + 1;
    call->ts_ns = bpf_ktime_get_ns(); /* last, so the probe's own work is not in the call */
    return 0;
}

/* The fields every call record has, from the open call and the return. */
static __always_inline void fill_call(struct pt_regs *ctx, struct cw_cuda_call *event,
                                      const struct open_call *call, __u64 id, __u64 now)
{
    event->ts_ns = call->ts_ns;
    event->dur_ns = now - call->ts_ns;
    event->bytes = call->bytes;
    event->stream = call->stream;
    event->host_addr = call->host_addr;
    event->tid = (__u32)id;
    event->tgid = id >> 32;
    event->ret = PT_REGS_RC(ctx);
    event->stack_id = call->stack_id;
    event->python_stack = call->python_stack;
    event->op = call->op;
    event->copy_kind = call->copy_kind;
    event->flags = call->flags;
}

/* An NCCL call: what it returned through its pointer argument is read now (the communicator it
 * created, or the version). */
static __always_inline int send_nccl_call(struct pt_regs *ctx, const struct open_call *call,
                                          __u64 id, __u64 now)
{
    struct cw_nccl_call *event = bpf_ringbuf_reserve(&cuda_events, sizeof(*event), 0);
    if (!event) {
        __sync_fetch_and_add(&counters.ringbuf_drops, 1);
        return 0;
    }
    fill_call(ctx, &event->call, call, id, now);
    event->comm = call->comm;
    event->count = call->count;
    event->peer = call->peer;
    event->nranks = call->nranks;
    event->datatype = call->datatype;
    event->redop = call->redop;
    __builtin_memset(event->pad, 0, sizeof(event->pad));
    if (call->out_ptr && call->op == CW_OP_ncclGetVersion) {
        __s32 version = 0;
        bpf_probe_read_user(&version, sizeof(version), (void *)call->out_ptr);
        event->count = version;
    } else if (call->out_ptr) {
        __u64 created = 0;
        bpf_probe_read_user(&created, sizeof(created), (void *)call->out_ptr);
        event->comm = created;
    }
    CW_SUBMIT_QUIET(event);
    return 0;
}

SEC("uretprobe")
int cw_cuda_return(struct pt_regs *ctx)
{
    __u64 now = bpf_ktime_get_ns();
    __u64 id = bpf_get_current_pid_tgid();
    struct open_calls *open = own_open_calls(id, false);
    if (!open || open->depth == 0) {
        if (cw_is_traced(id >> 32))
            __sync_fetch_and_add(&counters.unmatched_returns, 1);
        return 0;
    }
    /* The open call whose frame this is: its entry's stack pointer, below the return address that
     * the return has popped (x86-64). A runtime function that jumps to a driver function shares
     * its frame; the driver's return comes first and takes the innermost. Calls above it lost
     * their return (a longjmp or a missed uretprobe) and are dropped. */
    const __u64 entry_sp = PT_REGS_SP(ctx) - sizeof(__u64);
    __u32 depth = open->depth;
    struct open_call *call = NULL;
    for (int i = 0; i < CW_MAX_NESTING; i++) {
        if (depth == 0)
            break;
        depth--;
        struct open_call *candidate = &open->calls[depth & (CW_MAX_NESTING - 1)];
        if (candidate->sp == entry_sp) {
            call = candidate;
            break;
        }
    }
    if (!call) {
        __sync_fetch_and_add(&counters.unmatched_returns, 1);
        return 0;
    }
    __u32 skipped = open->depth - 1 - depth;
    if (skipped)
        __sync_fetch_and_add(&counters.entries_lost, skipped);
    open->depth = depth;

    if (call->op >= CW_OP_NCCL_FIRST)
        return send_nccl_call(ctx, call, id, now);
    struct cw_cuda_call *event = bpf_ringbuf_reserve(&cuda_events, sizeof(*event), 0);
    if (!event) {
        __sync_fetch_and_add(&counters.ringbuf_drops, 1);
        return 0;
    }
    fill_call(ctx, event, call, id, now);
    if (call->out_ptr) {
        __u64 returned = 0;
        bpf_probe_read_user(&returned, sizeof(returned), (void *)call->out_ptr);
        event->host_addr = returned;
        event->flags |= CW_CALL_HAS_ADDR;
    }
    CW_SUBMIT_QUIET(event);
    return 0;
}

char LICENSE[] SEC("license") = "GPL";
