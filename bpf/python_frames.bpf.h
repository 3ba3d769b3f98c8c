/* The walk of a thread's CPython frames in the kernel, shared by the CUDA-call uprobes and the
 * sched_switch program (the current task is the thread walked in both: at sched_switch it is the
 * thread leaving the CPU). Bounded: at most CW_PY_MAX_THREADS thread states searched and
 * CW_PY_MAX_FRAMES frames read, two user-memory reads per frame; a read that would fault (a page
 * not resident) ends the walk, since BPF cannot take page faults here.
 *
 * Finding the thread's PyThreadState: a thread that calls CUDA through ctypes has released the GIL,
 * so the interpreter's "current" thread state is not it. The walk follows
 * _PyRuntime.interpreters.head -> threads.head -> next and matches native_thread_id to the kernel
 * tid, then keeps the address in the thread's task storage; each later walk re-checks that one
 * field (a thread state freed and reused by another thread no longer matches). A thread without
 * a Python thread state (a native helper thread) is searched again at most every
 * CW_PY_RETRY_NS.
 *
 * A frame is the code object's address, the instruction's byte offset in it and co_firstlineno;
 * user space turns that into file, function and line once per code object. The frames are
 * interned in python_stacks under a hash of them, compared in full on a hit. */
#ifndef CAUSEWAY_PYTHON_FRAMES_BPF_H
#define CAUSEWAY_PYTHON_FRAMES_BPF_H

#include "bpf/common.bpf.h"
#include "bpf/python_process.bpf.h"

#define CW_PY_RETRY_NS 10000000ULL /* 10 ms between two searches for a missing thread state */

/* 1: walk Python frames (--stacks without --no-python-frames). Set before load. */
const volatile bool walk_python = false;

/* Per-thread Python state: the cached thread state, the switch-out sampling state, and the
 * scratch space of a walk (per thread, so a walk preempted on its CPU is not overwritten). */
struct cw_python_thread {
    __u64 tstate;             /* its PyThreadState, 0 when not known */
    __u64 tstate_retry_ns;    /* no thread state found: do not search before this time */
    __u64 last_walk_ns;       /* last walk at a switch-out that left it runnable (sampling gap) */
    __u64 last_sleep_walk_ns; /* last walk at a switch-out into a sleep (its own sampling gap) */
    __u64 took_cpu_at_ns;     /* the switch-out at which it took a GPU thread's CPU; 0: none */
    __u32 took_cpu_from_tid;  /* that GPU thread */
    __u32 took_cpu_from_tgid;
    __u8 drives_gpu;          /* 1 once it has made a CUDA call */
    __u8 pad[7];
    __u8 chunk[CW_PY_FRAME_CHUNK]; /* the frame being read */
    struct cw_python_stack stack;  /* the stack being built */
};

/* key: a thread (task storage); value: its Python state. Created for threads that call CUDA in a
 * Python process and for the threads that take their CPU. */
struct {
    __uint(type, BPF_MAP_TYPE_TASK_STORAGE);
    __uint(map_flags, BPF_F_NO_PREALLOC);
    __type(key, int);
    __type(value, struct cw_python_thread);
} python_threads SEC(".maps");

/* key: hash of a stack's frames (never CW_PY_NO_STACK); value: the frames. Shrunk to one entry
 * when Python frames are not walked. */
struct {
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, CW_PY_MAX_STACKS);
    __type(key, __u32);
    __type(value, struct cw_python_stack);
} python_stacks SEC(".maps");

/* Walks of this skeleton; user space reads them through the skeleton's .bss. */
struct cw_python_counters python_counters;

static __always_inline __u64 cw_py_read_ptr(__u64 address)
{
    __u64 value = 0;
    if (address)
        bpf_probe_read_user(&value, sizeof(value), (const void *)address);
    return value;
}

/* The pointer at `offset` in the frame chunk; 0 when the offset does not fit. */
static __always_inline __u64 cw_py_chunk_ptr(const struct cw_python_thread *pt, __u32 offset)
{
    if (offset > CW_PY_FRAME_CHUNK - sizeof(__u64))
        return 0;
    return *(const __u64 *)(pt->chunk + offset);
}

static __always_inline __u8 cw_py_chunk_byte(const struct cw_python_thread *pt, __u32 offset)
{
    if (offset > CW_PY_FRAME_CHUNK - 1)
        return 0;
    return pt->chunk[offset];
}

/* The state of a walk, shared with its bpf_loop() steps: bpf_loop verifies a step once, where a
 * plain loop of this size is verified once per iteration and exceeds the verifier's budget. */
struct cw_py_walk {
    const struct cw_python_process *proc;
    struct cw_python_thread *pt;
    const struct cw_python_stack *stored; /* cw_py_same_stack: the stack compared with */
    __u64 interp;  /* thread search: the interpreter whose list is followed */
    __u64 cursor;  /* the thread state or frame the next step reads; 0: done */
    __u64 hash;
    __u32 tid;
    __u32 depth;
    bool found;    /* thread search: cursor is the thread's state; compare: stacks differ */
};

static long cw_py_thread_step(__u64 index, void *data)
{
    struct cw_py_walk *w = data;
    const struct cw_python_process *proc = w->proc;
    if (!w->cursor) {
        w->interp = w->interp ? cw_py_read_ptr(w->interp + proc->interp_next) : 0;
        if (!w->interp)
            return 1;
        w->cursor = cw_py_read_ptr(w->interp + proc->interp_threads_head);
        return 0;
    }
    if (cw_py_read_ptr(w->cursor + proc->tstate_native_thread_id) == w->tid) {
        w->found = true;
        return 1;
    }
    w->cursor = cw_py_read_ptr(w->cursor + proc->tstate_next);
    return 0;
}

/* The PyThreadState of thread `tid`, or 0. */
static __always_inline __u64 cw_py_thread_state(const struct cw_python_process *proc,
                                                struct cw_python_thread *pt, __u32 tid)
{
    __u64 tstate = pt->tstate;
    if (tstate) {
        if (cw_py_read_ptr(tstate + proc->tstate_native_thread_id) == tid)
            return tstate;
        pt->tstate = 0;
    }
    __u64 now = bpf_ktime_get_ns();
    if (pt->tstate_retry_ns > now)
        return 0;
    struct cw_py_walk w = {.proc = proc, .tid = tid};
    w.interp = cw_py_read_ptr(proc->runtime_addr + proc->runtime_interpreters_head);
    w.cursor = w.interp ? cw_py_read_ptr(w.interp + proc->interp_threads_head) : 0;
    bpf_loop(CW_PY_MAX_THREADS, cw_py_thread_step, &w, 0);
    if (w.found && w.cursor) {
        pt->tstate = w.cursor;
        return w.cursor;
    }
    pt->tstate_retry_ns = now + CW_PY_RETRY_NS;
    return 0;
}

static long cw_py_compare_step(__u64 index, void *data)
{
    struct cw_py_walk *w = data;
    if (index >= w->depth || index >= CW_PY_MAX_FRAMES)
        return 1;
    const struct cw_python_frame *x = &w->stored->frames[index & (CW_PY_MAX_FRAMES - 1)];
    const struct cw_python_frame *y = &w->pt->stack.frames[index & (CW_PY_MAX_FRAMES - 1)];
    if (x->code != y->code || x->instr_offset != y->instr_offset ||
        x->first_line != y->first_line) {
        w->found = true;
        return 1;
    }
    return 0;
}

static __always_inline bool cw_py_same_stack(const struct cw_python_stack *stored,
                                             struct cw_python_thread *pt)
{
    if (stored->depth != pt->stack.depth || stored->flags != pt->stack.flags)
        return false;
    struct cw_py_walk w = {.pt = pt, .stored = stored, .depth = stored->depth};
    bpf_loop(CW_PY_MAX_FRAMES, cw_py_compare_step, &w, 0);
    return !w.found;
}

/* Stores pt->stack under `key` unless an equal stack is there; the key, or CW_PY_NO_STACK. */
static __always_inline __u32 cw_py_intern(struct cw_python_thread *pt, __u32 key)
{
    struct cw_python_stack *stored = bpf_map_lookup_elem(&python_stacks, &key);
    if (!stored) {
        long rc = bpf_map_update_elem(&python_stacks, &key, &pt->stack, BPF_NOEXIST);
        if (rc == 0)
            return key;
        stored = bpf_map_lookup_elem(&python_stacks, &key); /* another CPU stored it first */
        if (!stored) {
            __sync_fetch_and_add(&python_counters.map_full, 1);
            return CW_PY_NO_STACK;
        }
    }
    if (cw_py_same_stack(stored, pt))
        return key;
    __sync_fetch_and_add(&python_counters.collisions, 1);
    return CW_PY_NO_STACK;
}

/* One frame: read it, keep it unless it is a shim, move to the caller's. */
static long cw_py_frame_step(__u64 index, void *data)
{
    struct cw_py_walk *w = data;
    const struct cw_python_process *proc = w->proc;
    struct cw_python_thread *pt = w->pt;
    if (!w->cursor)
        return 1;
    if (bpf_probe_read_user(pt->chunk, CW_PY_FRAME_CHUNK, (const void *)w->cursor) != 0) {
        __sync_fetch_and_add(&python_counters.read_errors, 1);
        pt->stack.flags |= CW_PY_TRUNCATED;
        w->cursor = 0;
        return 1;
    }
    __u64 code = cw_py_chunk_ptr(pt, proc->frame_code);
    __u64 instr = cw_py_chunk_ptr(pt, proc->frame_instr);
    __u8 owner = cw_py_chunk_byte(pt, proc->frame_owner);
    w->cursor = cw_py_chunk_ptr(pt, proc->frame_previous);
    /* Shim frames (3.12+) mark an entry from C and run no code of the user's. */
    if (!code || owner == proc->owner_cstack)
        return 0;
    __u32 first_line = 0;
    bpf_probe_read_user(&first_line, sizeof(first_line),
                        (const void *)(code + proc->code_firstlineno));
    __s64 offset = (__s64)(instr - (code + proc->code_adaptive));
    __s32 instr_offset = offset < -1 ? -1 : (offset > 0x7fffffff ? 0x7fffffff : (__s32)offset);
    struct cw_python_frame *slot = &pt->stack.frames[w->depth & (CW_PY_MAX_FRAMES - 1)];
    slot->code = code;
    slot->instr_offset = instr_offset;
    slot->first_line = first_line;
    w->hash = (w->hash ^ code) * 0x100000001b3ULL;
    w->hash = (w->hash ^ (((__u64)(__u32)instr_offset << 32) | first_line)) * 0x100000001b3ULL;
    w->depth++;
    return w->depth >= CW_PY_MAX_FRAMES;
}

/* Walks the current thread's Python frames into pt->stack and interns them: the stack's key, or
 * CW_PY_NO_STACK when the thread has none that can be read. */
static __always_inline __u32 cw_py_walk(const struct cw_python_process *proc,
                                        struct cw_python_thread *pt, __u32 tid)
{
    __u64 tstate = cw_py_thread_state(proc, pt, tid);
    if (!tstate) {
        __sync_fetch_and_add(&python_counters.no_thread_state, 1);
        return CW_PY_NO_STACK;
    }
    __sync_fetch_and_add(&python_counters.walks, 1);
    __u64 frame = cw_py_read_ptr(tstate + proc->tstate_frame);
    if (proc->cframe_current_frame != CW_PY_NO_CFRAME)
        frame = cw_py_read_ptr(frame ? frame + proc->cframe_current_frame : 0);
    pt->stack.flags = 0;
    struct cw_py_walk w = {.proc = proc, .pt = pt, .cursor = frame, .hash = 0xcbf29ce484222325ULL};
    /* One step more than frames kept, so that a step reads a frame beyond the limit only to learn
     * that the stack goes on. */
    bpf_loop(CW_PY_MAX_FRAMES + 1, cw_py_frame_step, &w, 0);
    if (w.cursor) {
        pt->stack.flags |= CW_PY_TRUNCATED;
        __sync_fetch_and_add(&python_counters.truncated, 1);
    }
    if (w.depth == 0)
        return CW_PY_NO_STACK;
    pt->stack.depth = w.depth;
    __u32 key = (__u32)(w.hash ^ (w.hash >> 32)) ^ pt->stack.flags;
    return cw_py_intern(pt, key == CW_PY_NO_STACK ? 1 : key);
}

/* The Python state of `task` when its process has a readable interpreter (created when
 * `create`), or NULL; `proc` receives the interpreter's layout. */
static __always_inline struct cw_python_thread *
cw_py_thread(struct task_struct *task, bool create, const struct cw_python_process **proc)
{
    __u32 tgid = task->tgid;
    *proc = bpf_map_lookup_elem(&python_procs, &tgid);
    if (!*proc)
        return NULL;
    return bpf_task_storage_get(&python_threads, task, 0,
                                create ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
}

#endif /* CAUSEWAY_PYTHON_FRAMES_BPF_H */
