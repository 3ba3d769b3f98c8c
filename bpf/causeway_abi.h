/* The ABI between the BPF programs (bpf/, one .bpf.c per probe family) and the collector (collector/): event records
 * sent through the ring buffers and the values of maps that user space reads. Fixed-width types,
 * widest field first, explicit padding, so both compilers lay them out identically; the C++ side
 * checks sizes with static_assert (collector/attach/abi_check.hpp).
 *
 * Timestamps are bpf_ktime_get_ns() (CLOCK_MONOTONIC, ns); user space subtracts the session's
 * start. pid = thread id (tid) and tgid = process id, as the kernel names them. */
#ifndef CAUSEWAY_BPF_ABI_H
#define CAUSEWAY_BPF_ABI_H

#ifdef __cplusplus
#include <cstdint>
typedef std::uint8_t cw_u8;
typedef std::uint16_t cw_u16;
typedef std::uint32_t cw_u32;
typedef std::int32_t cw_s32;
typedef std::uint64_t cw_u64;
#else
typedef __u8 cw_u8;
typedef __u16 cw_u16;
typedef __u32 cw_u32;
typedef __s32 cw_s32;
typedef __u64 cw_u64;
#endif

#define CW_COMM_LEN 16
#define CW_PATH_LEN 128

/* Map sizes and bounds that the data-quality counters name in their descriptions
 * (tracedb/data_quality_counters.cpp), so they are stated once. Plain numbers: the C++ side
 * stringifies them. */
#define CW_MAX_TRACED_PROCESSES 16384 /* traced_tgids: processes of the traced tree */
#define CW_MAX_TRACED_THREADS 65536   /* per-thread scheduling state */
#define CW_PY_MAX_STACKS 16384        /* distinct Python stacks kept (python_stacks entries) */
#define CW_MAX_NESTING 4 /* open CUDA calls per thread; power of two: the index is masked */
#define CW_OPEN_CALL_SLOTS 8192 /* threads' open calls by tid (open_calls.bpf.h); a power of two */

/* CUDA operation ids: equal to cuda_op.id in schemas/trace.sql (a unit test compares them). The
 * collector passes the op as the uprobe's bpf_cookie, so one entry and one return program serve
 * every symbol. */
enum cw_cuda_op {
    CW_OP_cudaMalloc = 1,
    CW_OP_cudaFree = 2,
    CW_OP_cudaMallocHost = 3,
    CW_OP_cudaHostAlloc = 4,
    CW_OP_cudaFreeHost = 5,
    CW_OP_cudaMemcpy = 6,
    CW_OP_cudaMemcpyAsync = 7,
    CW_OP_cudaLaunchKernel = 8,
    CW_OP_cudaStreamSynchronize = 9,
    CW_OP_cudaDeviceSynchronize = 10,
    CW_OP_cudaEventSynchronize = 11,
    CW_OP_cudaStreamCreate = 12,
    CW_OP_cudaEventRecord = 13,
    CW_OP_cudaMallocAsync = 14,
    CW_OP_cudaFreeAsync = 15,
    CW_OP_cuLaunchKernel = 101,
    CW_OP_cuMemcpyHtoD_v2 = 102,
    CW_OP_cuMemcpyDtoH_v2 = 103,
    CW_OP_cuMemcpyHtoDAsync_v2 = 104,
    CW_OP_cuMemcpyDtoHAsync_v2 = 105,
    CW_OP_cuMemAlloc_v2 = 106,
    CW_OP_cuMemFree_v2 = 107,
    CW_OP_cuCtxSynchronize = 108,
    CW_OP_cuStreamSynchronize = 109,
    /* NCCL (libnccl): collectives, point-to-point, groups, communicators. Their calls are sent as
     * struct cw_nccl_call. */
    CW_OP_ncclAllReduce = 201,
    CW_OP_ncclAllGather = 202,
    CW_OP_ncclReduceScatter = 203,
    CW_OP_ncclBroadcast = 204,
    CW_OP_ncclReduce = 205,
    CW_OP_ncclSend = 206,
    CW_OP_ncclRecv = 207,
    CW_OP_ncclGroupStart = 208,
    CW_OP_ncclGroupEnd = 209,
    CW_OP_ncclCommInitRank = 210,
    CW_OP_ncclCommInitRankConfig = 211,
    CW_OP_ncclCommInitAll = 212,
    CW_OP_ncclCommSplit = 213,
    CW_OP_ncclCommDestroy = 214,
    CW_OP_ncclCommAbort = 215,
    CW_OP_ncclGetVersion = 216,
};
#define CW_OP_NCCL_FIRST CW_OP_ncclAllReduce

/* cudaMemcpyKind values as stored in cuda_call.copy_kind. */
#define CW_COPY_HOST_TO_HOST 0
#define CW_COPY_HOST_TO_DEVICE 1
#define CW_COPY_DEVICE_TO_HOST 2
#define CW_COPY_DEVICE_TO_DEVICE 3
#define CW_COPY_DEFAULT 4
#define CW_COPY_NONE 0xff /* the op is not a copy */

/* cw_cuda_call.flags */
#define CW_CALL_HAS_BYTES 0x1  /* bytes is the call's size argument */
#define CW_CALL_HAS_STREAM 0x2 /* stream is the call's stream argument */
#define CW_CALL_HAS_ADDR 0x4   /* host_addr is meaningful (see below) */

/* One CUDA call, sent when it returns. */
struct cw_cuda_call {
    cw_u64 ts_ns;     /* entry (CLOCK_MONOTONIC ns) */
    cw_u64 dur_ns;    /* entry to return (ns) */
    cw_u64 bytes;     /* size argument of copies and allocations (bytes) */
    cw_u64 stream;    /* cudaStream_t / CUstream handle (0 = legacy default stream) */
    cw_u64 host_addr; /* copies: the host-side buffer; cudaMallocHost/cudaHostAlloc: the pointer
                         returned; cudaFreeHost: the pointer freed */
    cw_u32 tid;
    cw_u32 tgid;
    cw_s32 ret;       /* cudaError_t / CUresult */
    cw_s32 stack_id;  /* user stack at entry in the cuda skeleton's user_stacks map; < 0: none */
    cw_u16 op;        /* enum cw_cuda_op */
    cw_u8 copy_kind;  /* CW_COPY_*, CW_COPY_NONE for non-copies */
    cw_u8 flags;      /* CW_CALL_* */
    cw_u32 python_stack; /* key of the Python frames at entry in the python_stacks map;
                            CW_PY_NO_STACK: none (not a readable interpreter, or not walked) */
};

/* cw_nccl_call.peer and nranks where the op has none. */
#define CW_NCCL_NONE (-1)

/* One NCCL call, sent when it returns: the call as every CUDA call is (bytes unset: user space
 * computes them from count and datatype), and NCCL's own arguments. */
struct cw_nccl_call {
    struct cw_cuda_call call;
    cw_u64 comm;      /* ncclComm_t: the call's communicator; CommInit*, CommSplit: the one they
                         created (read at return); CommInitAll: the first; 0 none */
    cw_u64 count;     /* collectives, Send, Recv: elements; GetVersion: the version returned */
    cw_s32 peer;      /* Broadcast, Reduce: root; Send, Recv: peer; CommInitRank*: the rank;
                         CommSplit: color; CW_NCCL_NONE otherwise */
    cw_s32 nranks;    /* CommInitRank*: ranks in the communicator; CommInitAll: devices;
                         CW_NCCL_NONE otherwise */
    cw_u8 datatype;   /* ncclDataType_t of collectives, Send and Recv */
    cw_u8 redop;      /* ncclRedOp_t of AllReduce, ReduceScatter, Reduce */
    cw_u8 pad[6];
};

/* Frames kept per user stack (innermost first; 0 ends a shorter stack). */
#define CW_STACK_DEPTH 32

/* Python frames (bpf/python_frames.bpf.h). A Python stack is interned in the kernel: its key is a
 * hash of its frames (never CW_PY_NO_STACK) in the python_stacks map, whose value holds the
 * frames; user space reads each key once per process and resolves file, function and line. */
#define CW_PY_NO_STACK 0
#define CW_PY_MAX_FRAMES 32   /* Python frames kept per stack, innermost first */
#define CW_PY_MAX_THREADS 32  /* thread states searched for the current thread (all interpreters) */
#define CW_PY_FRAME_CHUNK 72  /* bytes of an _PyInterpreterFrame read at once: every field used
                                 lies in them in 3.11 to 3.13 */
#define CW_PY_NO_CFRAME 0xffff /* cw_python_process.cframe_current_frame: the thread state points
                                  at the current frame itself (3.13+), not through a _PyCFrame */
#define CW_PY_NO_OWNER 0xff   /* cw_python_process.owner_cstack: the version has no shim frames */

/* One Python frame as the kernel sees it; user space reads the code object once. */
struct cw_python_frame {
    cw_u64 code;          /* address of the PyCodeObject in the process */
    cw_s32 instr_offset;  /* bytes from the code object's first instruction to the frame's
                             instruction (prev_instr before 3.13, instr_ptr from 3.13); < 0 before
                             the first instruction ran */
    cw_u32 first_line;    /* co_firstlineno read in the kernel, so that a code object freed and its
                             address reused by another is not taken for the first */
};

/* cw_python_stack.flags */
#define CW_PY_TRUNCATED 0x1 /* the thread had more than CW_PY_MAX_FRAMES frames: the outermost
                               are missing */

/* Value of the python_stacks map. */
struct cw_python_stack {
    cw_u32 depth; /* frames used */
    cw_u32 flags; /* CW_PY_* */
    struct cw_python_frame frames[CW_PY_MAX_FRAMES];
};

/* Value of the python_procs map (key: tgid): where a process's interpreter keeps its state and the
 * structure offsets (bytes) of its version, set by user space from the interpreter binary
 * (collector/python/offsets.cpp); copied to a child at fork, removed at exec. */
struct cw_python_process {
    cw_u64 runtime_addr;              /* &_PyRuntime in the process (load base added) */
    cw_u16 runtime_interpreters_head; /* _PyRuntimeState.interpreters.head */
    cw_u16 interp_next;               /* PyInterpreterState.next */
    cw_u16 interp_threads_head;       /* PyInterpreterState.threads.head */
    cw_u16 tstate_next;               /* PyThreadState.next */
    cw_u16 tstate_native_thread_id;   /* PyThreadState.native_thread_id (the kernel tid) */
    cw_u16 tstate_frame;              /* PyThreadState.cframe (3.11, 3.12) or .current_frame */
    cw_u16 cframe_current_frame;      /* _PyCFrame.current_frame; CW_PY_NO_CFRAME from 3.13 */
    cw_u16 frame_code;                /* _PyInterpreterFrame.f_code / f_executable */
    cw_u16 frame_previous;            /* _PyInterpreterFrame.previous */
    cw_u16 frame_instr;               /* _PyInterpreterFrame.prev_instr / instr_ptr */
    cw_u16 frame_owner;               /* _PyInterpreterFrame.owner (one byte) */
    cw_u16 code_adaptive;             /* PyCodeObject.co_code_adaptive: the first instruction */
    cw_u16 code_firstlineno;          /* PyCodeObject.co_firstlineno (int) */
    cw_u8 owner_cstack;               /* FRAME_OWNED_BY_CSTACK (3.12+), CW_PY_NO_OWNER before */
    cw_u8 pad;
    cw_u32 runtime_size;              /* sizeof _PyRuntime (its symbol's size): a futex inside it
                                         is the GIL's (3.11: ceval.gil; 3.12+: the main
                                         interpreter's, which _PyRuntime holds) */
};

/* Why a Python stack was taken at a switch-out (cw_switch_stack.role). */
#define CW_SWITCH_GPU_THREAD 0 /* a thread that has made CUDA calls left its CPU */
#define CW_SWITCH_COMPETITOR 1 /* a thread left a CPU it had taken from such a thread */
/* Not a switch-out: a thread of the same process woke such a thread from its wait for the GIL
 * (it was handing the GIL over). */
#define CW_SWITCH_GIL_HOLDER 2

/* The Python stack of a traced thread at a switch-out (sched skeleton's stack_samples ring). */
struct cw_switch_stack {
    cw_u64 ts_ns;          /* switch-out */
    cw_u64 gpu_switch_out_ns; /* competitor: when it took the CPU (the GPU thread's switch-out) */
    cw_u32 tid;
    cw_u32 tgid;
    cw_u32 gpu_tid;        /* competitor: the GPU thread whose CPU it took; 0 otherwise */
    cw_u32 gpu_tgid;
    cw_u32 python_stack;   /* key in python_stacks */
    cw_u8 role;            /* CW_SWITCH_* */
    cw_u8 reason;          /* CW_OFFCPU_* of this switch-out */
    cw_u8 pad[2];
};

/* Python walks of one skeleton (its .bss), for the data_quality table. */
struct cw_python_counters {
    cw_u64 walks;              /* stacks walked (count) */
    cw_u64 no_thread_state;    /* walks that found no thread state for the thread */
    cw_u64 read_errors;        /* walks stopped by an unreadable frame (page not resident) */
    cw_u64 truncated;          /* stacks deeper than CW_PY_MAX_FRAMES */
    cw_u64 collisions;         /* two stacks with one key: the later one was not stored */
    cw_u64 map_full;           /* python_stacks full: the stack was not stored */
    cw_u64 rate_limited;       /* switch-outs not walked: the thread was walked less than
                                  python_sample_gap_ns before */
    cw_u64 ringbuf_drops;      /* switch-out stacks lost: the stack_samples ring was full */
};

/* Why a traced thread left its CPU (offcpu.reason). */
#define CW_OFFCPU_PREEMPTED 0 /* still runnable (prev_state == TASK_RUNNING) */
#define CW_OFFCPU_BLOCKED 1   /* slept */
#define CW_OFFCPU_THROTTLED 2 /* still runnable, but its cgroup had used its CPU quota (CFS
                                 bandwidth control): the task that got the CPU did not take it */

/* Who ended a sleep (offcpu.wake_context): sched_waking runs in the waker's context, so the task
 * running it is the waker unless the wakeup runs in an interrupt, where the running task is only
 * the one that happened to be interrupted. */
#define CW_WAKE_NONE 0    /* no wakeup seen: preempted, or the wakeup was not recorded */
#define CW_WAKE_TASK 1    /* a task in process context: waker_tid/waker_tgid */
#define CW_WAKE_HARDIRQ 2 /* a hard interrupt or NMI: a timer, a device completion */
#define CW_WAKE_SOFTIRQ 3 /* a softirq: network receive, block completion, timer wheel */

/* What a blocked thread waited for (offcpu.waits_for), where the kernel can tell. */
#define CW_WAITS_UNKNOWN 0 /* not told: any other sleep */
#define CW_WAITS_GIL 1     /* a futex inside its process's _PyRuntime: CPython's GIL */

/* offcpu.syscall_nr when the thread slept outside a system call (a page fault, a kernel wait). */
#define CW_NO_SYSCALL (-1)

/* One off-CPU interval of a traced thread at least offcpu_floor_ns long, sent at switch-in. */
struct cw_offcpu {
    cw_u64 ts_ns;        /* switch-out */
    cw_u64 dur_ns;       /* switch-out to switch-in */
    cw_u64 runq_wait_ns; /* runnable but not running: all of it when preempted, wakeup to
                            switch-in when blocked (0 when no wakeup was seen) */
    cw_u32 tid;
    cw_u32 tgid;
    cw_u32 next_tid;     /* who got the CPU at switch-out; 0 = the idle task */
    cw_u32 next_tgid;
    cw_u32 cpu;          /* CPU it left */
    cw_u32 waker_tid;    /* CW_WAKE_TASK: the task that woke it; 0 otherwise */
    cw_u32 waker_tgid;
    cw_s32 syscall_nr;   /* blocked: the system call it slept in (the architecture's number from
                            its saved user registers), CW_NO_SYSCALL outside one; preempted:
                            CW_NO_SYSCALL */
    cw_u8 reason;        /* CW_OFFCPU_* */
    cw_u8 wake_context;  /* CW_WAKE_* */
    cw_u8 iowait;        /* 1: it slept in an I/O wait (task->in_iowait at switch-out) */
    cw_u8 waits_for;     /* blocked: CW_WAITS_* */
    cw_u8 pad[4];
    char next_comm[CW_COMM_LEN];
    char waker_comm[CW_COMM_LEN]; /* CW_WAKE_TASK: the waker's name */
};

/* Exact scheduling totals of one traced thread (value of the sched skeleton's thread_sched map,
 * also sent in a CW_LIFE_THREAD_EXIT event when the thread exits). */
struct cw_sched_totals {
    cw_u64 voluntary_switches;
    cw_u64 involuntary_switches;
    cw_u64 oncpu_ns;
    cw_u64 preempted_ns;
    cw_u64 blocked_ns;  /* run-queue wait excluded */
    cw_u64 runq_wait_ns;
    cw_u64 wakeups;
};

/* Per-thread scheduling state kept in the kernel: the totals plus what is needed to close the
 * current interval. */
struct cw_thread_sched {
    struct cw_sched_totals totals;
    cw_u64 switch_out_ns; /* last switch-out, 0 while on a CPU or never seen off it */
    cw_u64 switch_in_ns;  /* last switch-in, 0 when not seen */
    cw_u64 wakeup_ns;     /* last wakeup after switch_out_ns, 0 when none */
    cw_u32 next_tid;      /* who got the CPU at the last switch-out */
    cw_u32 next_tgid;
    cw_u32 cpu;
    cw_u32 waker_tid;     /* who woke it after the last switch-out (see struct cw_offcpu) */
    cw_u32 waker_tgid;
    cw_s32 syscall_nr;
    cw_u8 reason;
    cw_u8 wake_context;
    cw_u8 iowait;
    cw_u8 waits_for;
    cw_u8 pad[4];
    char next_comm[CW_COMM_LEN];
    char waker_comm[CW_COMM_LEN];
};

/* Process-tree and naming events (lifecycle ring buffer). */
enum cw_life_kind {
    CW_LIFE_FORK = 1,        /* a traced process created a process: tid/tgid = child, ppid */
    CW_LIFE_THREAD = 2,      /* a traced process created a thread */
    CW_LIFE_EXEC = 3,        /* comm = new name, path = file executed */
    CW_LIFE_EXIT = 4,        /* a thread exited; exit_code; group_dead = process exited */
    CW_LIFE_RENAME = 5,      /* comm = new name */
    CW_LIFE_LOADER = 6,      /* the dynamic loader changed the link map (dlopen/dlclose); the
                                process is stopped with SIGSTOP until user space resumes it */
};

struct cw_life_event {
    cw_u64 ts_ns;
    struct cw_sched_totals totals; /* CW_LIFE_EXIT: the thread's final totals */
    cw_u32 kind;                   /* enum cw_life_kind */
    cw_u32 tid;
    cw_u32 tgid;
    cw_u32 ppid;                   /* CW_LIFE_FORK: parent tgid */
    cw_s32 exit_code;              /* CW_LIFE_EXIT: as wait(2) reports it */
    cw_u8 group_dead;              /* CW_LIFE_EXIT: 1 when the whole process is gone */
    cw_u8 has_totals;              /* CW_LIFE_EXIT: totals are valid */
    cw_u8 pad[2];
    char comm[CW_COMM_LEN];
    char path[CW_PATH_LEN];        /* CW_LIFE_EXEC: the file executed (truncated) */
};

/* Page allocations of one traced process in one bucket (page_alloc skeleton's map). */
struct cw_page_key {
    cw_u64 bucket;   /* (ktime - session start) / page_bucket_ns */
    cw_u32 tgid;
    cw_u32 pad;
};
struct cw_page_value {
    cw_u64 count;
    cw_u64 bytes;
};

/* Ring-buffer reserve failures and other kernel-side losses of one skeleton (its .bss). */
struct cw_kernel_counters {
    cw_u64 ringbuf_drops;       /* events lost because the ring buffer was full */
    cw_u64 unmatched_returns;   /* cuda: a return without a recorded entry */
    cw_u64 entries_lost;        /* cuda: entries overwritten (nesting too deep) or without return */
    cw_u64 map_full;            /* a map update failed because the map was full */
    cw_u64 unmatched_switches;  /* sched: a traced thread's switch whose last switch the other
                                   way was not seen (an off-CPU or on-CPU stretch is lost) */
};

#endif /* CAUSEWAY_BPF_ABI_H */
