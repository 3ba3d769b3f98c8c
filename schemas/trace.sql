-- Causeway trace database, schema version 6.
--
-- Version 6 added session.gpu_link_mts and session.gpu_link_width (the PCIe link of the GPU, from
-- which what pinned copies would move is estimated), the NCCL ops (cuda_op api 'nccl'), and the
-- nccl_comm and nccl_call tables. Version 5 files have none of them.
--
-- Version 5 added offcpu.waits_for (a sleep that was a wait for CPython's GIL),
-- switch_out_stack role 2 (the Python stack of the thread that handed the GIL to a GPU-driving
-- thread) and cgroup_sample.cpus_allowed (the CPUs a cpuset or affinity lets a traced process
-- use). Version 4 files have none of them: their waits for the GIL read as futex sleeps.
--
-- Version 4 added cgroup_sample: the cgroup of each traced process and the CPU quota that limits
-- it, sampled once a second, and of each process outside the tree once, as first seen. Version 3 files have none: a CPU quota's throttling is still seen
-- (runnable while the CPU went idle), but its group and limit are not known.
--
-- Version 3 added Python frames: session.python_sample_gap_ns, stack.python_truncated, the stack_python_frame table (the
-- CPython frames of a stack) and the switch_out_stack table (Python stacks of GPU-driving threads
-- and of the threads that took their CPU, at switch-out). Version 2 files have none of them and
-- are read as stacks of native frames only.
--
-- Version 2 added who ended each sleep and what it slept in (offcpu.wake_context,
-- waker_thread_id, syscall_nr, iowait) and session.machine. Readers still read version 1 files,
-- where those are unknown.
--
-- One file holds one recording session. Conventions:
--   * Every timestamp column ends in _ns and counts nanoseconds since session.start_mono_ns
--     (CLOCK_MONOTONIC at the start of recording), so values stay small and a reader can place
--     any event on the session's time axis without knowing the machine's uptime.
--   * Every duration column ends in _ns (nanoseconds); sizes end in _bytes or are named bytes.
--   * process.id and thread.id are minted by the writer: a pid or tid that the kernel reuses gets
--     a new row, so two processes never merge.
--   * NULL means "not known" (never "zero"); each column comment says what absent means where it
--     matters.
--
-- The file is identified by PRAGMA application_id = 0x43415553 ('CAUS') and its version by
-- PRAGMA user_version. Readers refuse a file with another application_id or a newer version.

PRAGMA application_id = 1128355155;
PRAGMA user_version = 6;

-- Key/value facts about the file itself.
CREATE TABLE meta (
    key   TEXT PRIMARY KEY NOT NULL, -- 'format' ('causeway-trace'), 'schema_version', 'created_by'
    value TEXT NOT NULL              -- the fact, as text
) WITHOUT ROWID;

INSERT INTO meta (key, value) VALUES ('format', 'causeway-trace'), ('schema_version', '6');

-- The recording session: one row.
CREATE TABLE session (
    id                INTEGER PRIMARY KEY,  -- always 1
    host              TEXT NOT NULL,        -- hostname of the recorded machine
    kernel            TEXT NOT NULL,        -- uname release, e.g. '6.18.44'
    cpu_count         INTEGER NOT NULL,     -- online CPUs (count)
    machine           TEXT,                 -- uname machine ('x86_64', 'aarch64'): the numbering
                                            -- of offcpu.syscall_nr; NULL when unknown
    cpu_model         TEXT,                 -- /proc/cpuinfo 'model name'; NULL when unknown
    mem_total_bytes   INTEGER,              -- MemTotal (bytes); NULL when unknown
    gpu               TEXT,                 -- GPU model(s) seen, comma separated; NULL when none
    gpu_link_mts      INTEGER,              -- PCIe link rate of the GPU (MT/s per lane, e.g. 16000
                                            -- for PCIe 4.0): the slower of the GPU's and its
                                            -- port's most; of the slowest GPU; NULL when unknown
    gpu_link_width    INTEGER,              -- lanes of that link (count); NULL when unknown
    command_line      TEXT,                 -- traced command, or 'pid 123 456' when attached to pids
    collector_version TEXT NOT NULL,        -- version of the program that wrote the file
    collector_flags   TEXT NOT NULL,        -- its command line options, as given
    source            TEXT NOT NULL DEFAULT 'causeway-collector', -- who produced the events
                                            -- ('causeway-collector', 'import:ingero', 'synthetic')
    offcpu_floor_ns   INTEGER NOT NULL,     -- off-CPU intervals shorter than this (ns) are only
                                            -- counted in thread_sched_total, not stored one by one
    page_bucket_ns    INTEGER NOT NULL,     -- width of a page_alloc bucket (ns)
    python_sample_gap_ns INTEGER,           -- least time between two switch_out_stack rows of
                                            -- one thread of one kind (left runnable, or into a
                                            -- sleep) (ns); NULL when Python frames were not
                                            -- walked (no --stacks, --no-python-frames, schema 2)
    start_mono_ns     INTEGER NOT NULL,     -- CLOCK_MONOTONIC at start (ns): the zero of every _ns
    start_wall_ns     INTEGER NOT NULL,     -- CLOCK_REALTIME at start (ns since the Unix epoch)
    stop_ns           INTEGER               -- end of recording (ns since start); NULL while
                                            -- recording or when the collector died
);

-- Every process seen: traced ones (in_tree = 1) and the competitors outside the traced tree that
-- took a CPU from a traced thread (in_tree = 0).
CREATE TABLE process (
    id          INTEGER PRIMARY KEY,          -- minted id (pid reuse gets a new row)
    pid         INTEGER NOT NULL,             -- kernel pid (tgid)
    parent_id   INTEGER REFERENCES process(id), -- minted id of the parent; NULL when not traced
    ppid        INTEGER,                      -- kernel pid of the parent; NULL when unknown
    comm        TEXT NOT NULL,                -- latest name (16 bytes max, as the kernel keeps it)
    cmdline     TEXT,                         -- /proc/PID/cmdline, spaces between arguments;
                                              -- NULL when it could not be read
    in_tree     INTEGER NOT NULL,             -- 1: inside the traced process tree, 0: outside
    start_ns    INTEGER,                      -- fork time (ns); NULL when it predates recording
    exec_ns     INTEGER,                      -- last exec (ns); NULL when none was seen
    exit_ns     INTEGER,                      -- exit time (ns); NULL when alive at the end
    exit_code   INTEGER                       -- exit status as wait(2) reports it; NULL if unknown
);
CREATE INDEX process_by_pid ON process (pid);

-- Every thread seen, traced or competitor. The main thread of a process has tid = pid.
CREATE TABLE thread (
    id         INTEGER PRIMARY KEY,            -- minted id (tid reuse gets a new row)
    tid        INTEGER NOT NULL,               -- kernel tid
    process_id INTEGER NOT NULL REFERENCES process(id),
    comm       TEXT NOT NULL,                  -- latest name (updated on rename / exec)
    start_ns   INTEGER,                        -- creation (ns); NULL when it predates recording
    exit_ns    INTEGER                         -- exit (ns); NULL when alive at the end
);
CREATE INDEX thread_by_process ON thread (process_id);

-- Every rename of a thread (prctl PR_SET_NAME, pthread_setname_np, exec).
CREATE TABLE thread_rename (
    thread_id INTEGER NOT NULL REFERENCES thread(id),
    ts_ns     INTEGER NOT NULL,               -- when the new name was seen (ns)
    old_comm  TEXT,                           -- name before; NULL when unknown
    new_comm  TEXT NOT NULL                   -- name after
);

-- The CUDA operations Causeway knows. Ids are fixed across versions of the collector; importers
-- may add ops of their own above 1000.
CREATE TABLE cuda_op (
    id       INTEGER PRIMARY KEY,  -- op id stored in cuda_call.op_id
    name     TEXT NOT NULL UNIQUE, -- exported symbol, e.g. 'cudaMemcpyAsync', 'cuLaunchKernel'
    api      TEXT NOT NULL,        -- 'runtime' (libcudart), 'driver' (libcuda) or 'nccl' (libnccl)
    category TEXT NOT NULL         -- 'copy', 'kernel', 'sync', 'alloc', 'free', 'stream', 'event';
                                   -- NCCL: 'collective', 'p2p', 'group', 'comm', 'info'
);

INSERT INTO cuda_op (id, name, api, category) VALUES
    (1, 'cudaMalloc', 'runtime', 'alloc'),
    (2, 'cudaFree', 'runtime', 'free'),
    (3, 'cudaMallocHost', 'runtime', 'alloc'),
    (4, 'cudaHostAlloc', 'runtime', 'alloc'),
    (5, 'cudaFreeHost', 'runtime', 'free'),
    (6, 'cudaMemcpy', 'runtime', 'copy'),
    (7, 'cudaMemcpyAsync', 'runtime', 'copy'),
    (8, 'cudaLaunchKernel', 'runtime', 'kernel'),
    (9, 'cudaStreamSynchronize', 'runtime', 'sync'),
    (10, 'cudaDeviceSynchronize', 'runtime', 'sync'),
    (11, 'cudaEventSynchronize', 'runtime', 'sync'),
    (12, 'cudaStreamCreate', 'runtime', 'stream'),
    (13, 'cudaEventRecord', 'runtime', 'event'),
    (14, 'cudaMallocAsync', 'runtime', 'alloc'),
    (15, 'cudaFreeAsync', 'runtime', 'free'),
    (101, 'cuLaunchKernel', 'driver', 'kernel'),
    (102, 'cuMemcpyHtoD_v2', 'driver', 'copy'),
    (103, 'cuMemcpyDtoH_v2', 'driver', 'copy'),
    (104, 'cuMemcpyHtoDAsync_v2', 'driver', 'copy'),
    (105, 'cuMemcpyDtoHAsync_v2', 'driver', 'copy'),
    (106, 'cuMemAlloc_v2', 'driver', 'alloc'),
    (107, 'cuMemFree_v2', 'driver', 'free'),
    (108, 'cuCtxSynchronize', 'driver', 'sync'),
    (109, 'cuStreamSynchronize', 'driver', 'sync'),
    (201, 'ncclAllReduce', 'nccl', 'collective'),
    (202, 'ncclAllGather', 'nccl', 'collective'),
    (203, 'ncclReduceScatter', 'nccl', 'collective'),
    (204, 'ncclBroadcast', 'nccl', 'collective'),
    (205, 'ncclReduce', 'nccl', 'collective'),
    (206, 'ncclSend', 'nccl', 'p2p'),
    (207, 'ncclRecv', 'nccl', 'p2p'),
    (208, 'ncclGroupStart', 'nccl', 'group'),
    (209, 'ncclGroupEnd', 'nccl', 'group'),
    (210, 'ncclCommInitRank', 'nccl', 'comm'),
    (211, 'ncclCommInitRankConfig', 'nccl', 'comm'),
    (212, 'ncclCommInitAll', 'nccl', 'comm'),
    (213, 'ncclCommSplit', 'nccl', 'comm'),
    (214, 'ncclCommDestroy', 'nccl', 'comm'),
    (215, 'ncclCommAbort', 'nccl', 'comm'),
    (216, 'ncclGetVersion', 'nccl', 'info');

-- CUDA streams seen in calls, interned per process so cuda_call stores a small id.
CREATE TABLE cuda_stream (
    id         INTEGER PRIMARY KEY,                 -- small id stored in cuda_call.stream_id
    process_id INTEGER NOT NULL REFERENCES process(id),
    handle     INTEGER NOT NULL                     -- cudaStream_t value (0 = legacy default)
);

-- NCCL communicators seen in calls, interned per process so nccl_call stores a small id.
CREATE TABLE nccl_comm (
    id         INTEGER PRIMARY KEY,                 -- small id stored in nccl_call.comm_id
    process_id INTEGER NOT NULL REFERENCES process(id),
    handle     INTEGER NOT NULL,                    -- ncclComm_t value
    nranks     INTEGER,                             -- ranks in it (from ncclCommInitRank*,
                                                    -- ncclCommInitAll); NULL when not seen made
    rank       INTEGER                              -- this process's rank (ncclCommInitRank*);
                                                    -- NULL when not known
);

-- Every CUDA runtime and driver call of the traced processes (no sampling). Rows are appended in
-- roughly ts_ns order; the table has no secondary index so that a stored call stays small (the
-- analysis reads it in one pass).
CREATE TABLE cuda_call (
    thread_id   INTEGER NOT NULL,  -- thread.id of the calling thread
    op_id       INTEGER NOT NULL,  -- cuda_op.id
    ts_ns       INTEGER NOT NULL,  -- entry (ns since start)
    dur_ns      INTEGER NOT NULL,  -- entry to return (ns)
    bytes       INTEGER,           -- size argument of copies and allocations (bytes); NULL for
                                   -- ops without one
    copy_kind   INTEGER,           -- cudaMemcpyKind: 0 HtoH, 1 HtoD, 2 DtoH, 3 DtoD, 4 default;
                                   -- NULL for non-copies
    host_pinned INTEGER,           -- copies: 1 the host buffer is pinned (from cudaMallocHost /
                                   -- cudaHostAlloc), 0 pageable; NULL when not a host copy or not
                                   -- known
    stream_id   INTEGER,           -- cuda_stream.id; NULL for ops without a stream
    ret         INTEGER NOT NULL,  -- return code (cudaError_t / CUresult); 0 = success
    stack_id    INTEGER            -- stack.id of the user stack at entry; NULL when not recorded
);

-- NCCL's own arguments of each NCCL call (cuda_op api 'nccl'), beside its cuda_call row: the row
-- of the same thread_id and ts_ns. For collectives and point-to-point calls, cuda_call.bytes is
-- count times the datatype's size and cuda_call.stream_id their stream.
CREATE TABLE nccl_call (
    thread_id INTEGER NOT NULL, -- thread.id, as the cuda_call row
    ts_ns     INTEGER NOT NULL, -- entry (ns since start), as the cuda_call row
    op_id     INTEGER NOT NULL, -- cuda_op.id, as the cuda_call row
    comm_id   INTEGER,          -- nccl_comm.id: the call's communicator; for ncclCommInit*,
                                -- ncclCommSplit the one made (NULL when the call failed)
    count     INTEGER,          -- collectives, ncclSend/Recv: elements; ncclGetVersion: the
                                -- version; NULL otherwise
    datatype  INTEGER,          -- ncclDataType_t (7 float32, 9 bfloat16, ...); NULL when none
    redop     INTEGER,          -- ncclRedOp_t (0 sum, 1 prod, 2 max, 3 min, 4 avg); NULL when none
    peer      INTEGER           -- ncclBroadcast/Reduce: root; ncclSend/Recv: peer;
                                -- ncclCommInitRank*: rank; ncclCommSplit: color; NULL otherwise
);

-- Off-CPU intervals of traced threads at least session.offcpu_floor_ns long.
CREATE TABLE offcpu (
    thread_id      INTEGER NOT NULL, -- thread.id of the traced thread that left the CPU
    ts_ns          INTEGER NOT NULL, -- switch-out (ns since start)
    dur_ns         INTEGER NOT NULL, -- switch-out to switch-in (ns)
    reason         INTEGER NOT NULL, -- 0 preempted (still runnable: CPU contention),
                                     -- 1 blocked (slept: I/O, futex, pipe, sleep),
                                     -- 2 throttled (still runnable: its cgroup had used its
                                     -- CPU quota; next_thread_id did not take the CPU)
    runq_wait_ns   INTEGER NOT NULL, -- runnable but not running (ns): the whole interval when
                                     -- preempted, wakeup to switch-in when blocked (0 when no
                                     -- wakeup was seen)
    cpu            INTEGER NOT NULL, -- CPU it left
    next_thread_id INTEGER,          -- thread.id of the thread that got that CPU at switch-out;
                                     -- NULL for the idle task
    wake_context   INTEGER,          -- who ended a sleep: 0 no wakeup seen (preempted, or the
                                     -- wakeup was missed), 1 a thread (waker_thread_id),
                                     -- 2 a hard interrupt (timer, device completion), 3 a softirq
                                     -- (network, block completion); NULL when not recorded
    waker_thread_id INTEGER,         -- thread.id of the thread that woke it (wake_context = 1);
                                     -- NULL otherwise
    syscall_nr     INTEGER,          -- blocked: the system call it slept in (numbered as on
                                     -- session.machine, read from its saved user registers),
                                     -- -1 outside a system call; preempted: -1; NULL when not
                                     -- recorded
    iowait         INTEGER,          -- 1 when it slept in an I/O wait (disk), 0 otherwise; NULL
                                     -- when not recorded
    waits_for      INTEGER           -- blocked: what it waited for, where the recorder could
                                     -- tell: 1 CPython's GIL (a futex inside the process's
                                     -- _PyRuntime; every such wait is stored, below the floor
                                     -- too), 0 not told; NULL when not recorded
);
CREATE INDEX offcpu_by_thread ON offcpu (thread_id, ts_ns);

-- Exact scheduling totals per traced thread, including what fell below the interval floor.
-- Rewritten periodically during recording; the last write wins.
CREATE TABLE thread_sched_total (
    thread_id            INTEGER PRIMARY KEY REFERENCES thread(id),
    voluntary_switches   INTEGER NOT NULL, -- switch-outs while blocked (count)
    involuntary_switches INTEGER NOT NULL, -- switch-outs while runnable (count)
    oncpu_ns             INTEGER NOT NULL, -- time on a CPU (ns)
    preempted_ns         INTEGER NOT NULL, -- off CPU while runnable (ns)
    blocked_ns           INTEGER NOT NULL, -- off CPU while sleeping (ns), run-queue wait excluded
    runq_wait_ns         INTEGER NOT NULL, -- wakeup to switch-in after blocking (ns)
    wakeups              INTEGER NOT NULL  -- wakeups received (count)
);

-- Page allocations (mm_page_alloc) per process per bucket of session.page_bucket_ns.
CREATE TABLE page_alloc (
    process_id INTEGER NOT NULL REFERENCES process(id),
    bucket_ns  INTEGER NOT NULL, -- bucket start (ns since start)
    count      INTEGER NOT NULL, -- allocation calls (count)
    bytes      INTEGER NOT NULL, -- bytes allocated (4096 << order, summed)
    PRIMARY KEY (process_id, bucket_ns)
) WITHOUT ROWID;

-- System-wide snapshots, about one per second, from /proc.
CREATE TABLE system_snapshot (
    ts_ns               INTEGER PRIMARY KEY, -- sample time (ns since start)
    cpu_busy_pct        REAL NOT NULL,       -- all CPUs, non-idle share since previous (%)
    cpu_user_pct        REAL NOT NULL,       -- user + nice share (%)
    cpu_system_pct      REAL NOT NULL,       -- system + irq + softirq share (%)
    cpu_iowait_pct      REAL NOT NULL,       -- iowait share (%)
    mem_total_bytes     INTEGER NOT NULL,    -- MemTotal (bytes)
    mem_available_bytes INTEGER NOT NULL,    -- MemAvailable (bytes)
    load1               REAL NOT NULL,       -- 1-minute load average
    procs_running       INTEGER NOT NULL,    -- runnable tasks now (count)
    ctxt_per_s          REAL NOT NULL        -- context switches per second, system-wide
);

-- The cgroup of a traced process and the CPU quota that limits it, sampled with the system
-- snapshots (once a second) while the process lives; of a process outside the tree (one that
-- took a traced thread's CPU), once, at the first snapshot after it was first seen. The limit is the tightest quota on the way
-- from its group up to the root of the hierarchy: a container's CPU limit may be set on a parent.
CREATE TABLE cgroup_sample (
    ts_ns        INTEGER NOT NULL,               -- sample time (ns since start)
    process_id   INTEGER NOT NULL REFERENCES process(id),
    version      INTEGER NOT NULL,               -- 1: the v1 cpu controller's hierarchy; 2: v2
    path         TEXT NOT NULL,                  -- its cgroup in that hierarchy ('/': the root)
    limit_path   TEXT,                           -- the group whose quota limits it; NULL: none
    quota_us     INTEGER,                        -- that group's CPU time per period (us)
    period_us    INTEGER,                        -- its period (us)
    nr_periods   INTEGER,                        -- its cpu.stat so far: periods with runnable
    nr_throttled INTEGER,                        -- tasks, of which throttled,
    throttled_ns INTEGER,                        -- and the time its tasks were throttled (ns)
    cpus_allowed INTEGER                         -- traced processes: the CPUs it may run on (its
                                                 -- affinity, which its cpuset.cpus or a taskset
                                                 -- narrows); NULL when not read (schema 4, a
                                                 -- process outside the tree)
);
CREATE INDEX cgroup_sample_by_process ON cgroup_sample (process_id, ts_ns);

-- Call stacks referenced by cuda_call.stack_id and switch_out_stack.stack_id. A stack holds the
-- thread's native frames (stack_frame), its Python frames (stack_python_frame), or both; each is
-- numbered innermost first. Identical stacks of one process are stored once.
CREATE TABLE stack (
    id               INTEGER PRIMARY KEY,
    process_id       INTEGER NOT NULL REFERENCES process(id),
    python_truncated INTEGER  -- 1: the thread had more Python frames than the collector keeps
                              -- (32): the outermost are missing; 0: all its Python frames are
                              -- here; NULL: no Python frames were taken (not a readable CPython
                              -- process, Python frames off, or a schema-2 file)
);
CREATE TABLE stack_frame (
    stack_id INTEGER NOT NULL REFERENCES stack(id),
    depth    INTEGER NOT NULL, -- 0 = innermost
    address  INTEGER NOT NULL, -- instruction pointer (virtual address in the process)
    module   TEXT,             -- file mapped at that address; NULL when unknown
    symbol   TEXT,             -- symbol name; NULL when not resolved
    offset   INTEGER,          -- address - symbol start (bytes); NULL when not resolved
    PRIMARY KEY (stack_id, depth)
) WITHOUT ROWID;

-- Python frames of a stack (CPython 3.11+), innermost first: the interpreter's frames of the
-- thread when the stack was taken (the Python code that made the CUDA call or was running when
-- the thread left its CPU). Native frames of the same stack are in stack_frame; the two are not
-- merged here.
CREATE TABLE stack_python_frame (
    stack_id     INTEGER NOT NULL REFERENCES stack(id),
    depth        INTEGER NOT NULL, -- 0 = innermost Python frame
    file         TEXT,             -- source file (co_filename, as the interpreter names it);
                                   -- NULL when the code object could not be read
    function     TEXT,             -- qualified function name (co_qualname, e.g.
                                   -- 'Trainer.train_step', '<module>'); NULL when not read
    line         INTEGER,          -- source line (1-based) of the instruction the frame was at:
                                   -- the call being made for frames below the innermost; NULL
                                   -- when not read or the instruction has no line
    first_line   INTEGER NOT NULL, -- line of the function's def (co_firstlineno)
    code_address INTEGER NOT NULL, -- address of the code object in the process
    instr_offset INTEGER NOT NULL, -- byte offset of that instruction in the code object's
                                   -- bytecode (bytes); -1 before its first instruction ran
    PRIMARY KEY (stack_id, depth)
) WITHOUT ROWID;

-- Python stacks taken when a thread left its CPU (sched_switch), for two kinds of thread: a
-- GPU-driving thread (one that has made CUDA calls), and a thread leaving a CPU that it had taken
-- from a GPU-driving thread by preempting it. At sched_switch only the thread leaving can be read,
-- so a competitor's stack is where it was when it gave that CPU up, not when it took it. Sampled:
-- each thread at most once per session.python_sample_gap_ns among the switch-outs that leave it
-- runnable, and as often among those into a sleep (data_quality python/rate_limited counts the
-- switch-outs skipped).
CREATE TABLE switch_out_stack (
    thread_id         INTEGER NOT NULL, -- thread.id of the thread leaving its CPU
    ts_ns             INTEGER NOT NULL, -- switch-out (ns since start); equals offcpu.ts_ns of the
                                        -- off-CPU interval it starts when that one is stored;
                                        -- role 2: the wakeup
    stack_id          INTEGER NOT NULL, -- stack.id: its Python frames (stack_python_frame)
    role              INTEGER NOT NULL, -- 0 a GPU-driving thread, 1 a thread leaving a CPU it
                                        -- took from one (gpu_thread_id), 2 a thread of the same
                                        -- process waking one from its wait for the GIL (handing
                                        -- the GIL over; not a switch-out)
    reason            INTEGER NOT NULL, -- this switch-out as offcpu.reason: 0 preempted,
                                        -- 1 blocked, 2 throttled; role 2: 1 (the GPU-driving
                                        -- thread's)
    gpu_thread_id     INTEGER,          -- role 1, 2: thread.id of the GPU-driving thread it
                                        -- preempted, or woke; NULL for role 0
    gpu_switch_out_ns INTEGER           -- role 1: when it took that CPU (ns since start): the
                                        -- GPU-driving thread's switch-out, equal to the offcpu.ts_ns
                                        -- of that thread's preempted interval; role 2: the
                                        -- offcpu.ts_ns of the wait it ended; NULL for role 0
);
CREATE INDEX switch_out_stack_by_thread ON switch_out_stack (thread_id, ts_ns);

-- Probes the collector tried to attach, and what happened.
CREATE TABLE probe (
    library  TEXT NOT NULL,    -- path of the library attached to; '' for tracepoints
    symbol   TEXT NOT NULL,    -- function or tracepoint name
    kind     TEXT NOT NULL,    -- 'uprobe', 'uretprobe', 'tp_btf'
    required INTEGER NOT NULL, -- 1: a symbol every supported library has: where the library
                               -- exports it and it fails to attach, calls are missing (error);
                               -- 0: optional
    attached INTEGER NOT NULL, -- 1 attached, 0 not
    error    TEXT,             -- why not; NULL when attached. 'symbol not found in the library':
                               -- the library does not export it, so nothing is missing (info)
    PRIMARY KEY (library, symbol, kind)
) WITHOUT ROWID;

-- Data quality: anything lost, unmatched or unknown is counted here, never dropped silently.
CREATE TABLE data_quality (
    source      TEXT NOT NULL,    -- where: 'cuda', 'sched', 'page_alloc', 'lifecycle', 'writer', ...
    counter     TEXT NOT NULL,    -- what: 'ringbuf_drops', 'unmatched_returns', ...
    value       INTEGER NOT NULL, -- how many (count)
    severity    TEXT NOT NULL,    -- 'info', 'error' or 'data_loss'
    description TEXT NOT NULL,    -- one sentence a person can act on
    PRIMARY KEY (source, counter)
) WITHOUT ROWID;

-- Host events known only as counts per time bucket (importers of tools that keep many host events
-- only in aggregate). The causeway collector stores intervals instead and leaves this empty.
CREATE TABLE event_count (
    process_id    INTEGER REFERENCES process(id), -- NULL when the source did not say
    bucket_ns     INTEGER NOT NULL, -- bucket start (ns since start)
    bucket_dur_ns INTEGER NOT NULL, -- bucket width (ns)
    event         TEXT NOT NULL,    -- 'sched_switch', 'mm_page_alloc', 'process_fork', ...
    count         INTEGER NOT NULL, -- events in the bucket (count)
    stored        INTEGER NOT NULL, -- of those, how many were kept as individual records (count)
    total_dur_ns  INTEGER,          -- summed duration (ns); NULL when the event has none
    max_dur_ns    INTEGER           -- longest one (ns); NULL when the event has none
);
CREATE INDEX event_count_by_event ON event_count (event, process_id);
