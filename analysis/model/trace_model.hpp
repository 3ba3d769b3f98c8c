#pragma once
// The whole trace in memory, read once: the input of every analysis function. cuda_call is held
// column by column (it has millions of rows and no index, so it is read in one pass); the other
// tables are small and held as plain rows. Ids of the DB are replaced by dense indices into the
// vectors here (thread_index, op_index, process_index); -1 means "none" where a column may be
// NULL. A TraceModel is immutable once loaded, so a server can cache it for a finished trace.

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analysis/model/call_column.hpp"
#include "analysis/model/compact_column.hpp"
#include "analysis/model/container_identity.hpp"
#include "analysis/model/pcie_link.hpp"
#include "analysis/model/saturating.hpp"
#include "base/result.hpp"
#include "tracedb/data_quality_counters.hpp"
#include "tracedb/reader.hpp"

namespace causeway::analysis {

struct SessionInfo {
    std::string host;
    std::string kernel;
    std::int64_t cpu_count = 0;
    std::optional<std::string> machine;  // uname machine: how offcpu syscall numbers count
    std::optional<std::string> cpu_model;
    std::optional<std::string> gpu;
    std::optional<PcieLink> gpu_link;  // schema 6; nullopt when not read
    std::optional<std::string> command_line;
    std::string collector_version;
    std::string source;  // 'causeway-collector', 'import:ingero', 'synthetic'
    std::int64_t offcpu_floor_ns = 0;
    std::int64_t page_bucket_ns = 0;
    std::int64_t start_wall_ns = 0;
    std::optional<std::int64_t> stop_ns;  // NULL: still recording or the collector died

    bool imported() const { return source.rfind("import:", 0) == 0; }
};

struct ProcessInfo {
    std::int64_t id = 0;
    std::int64_t pid = 0;
    int parent_index = -1;  // index into TraceModel::processes; -1 when not traced
    std::optional<std::int64_t> ppid;
    std::string comm;
    std::optional<std::string> cmdline;
    bool in_tree = true;
    std::optional<std::int64_t> start_ns;
    std::optional<std::int64_t> exec_ns;
    std::optional<std::int64_t> exit_ns;
    std::optional<std::int64_t> exit_code;
    std::vector<int> thread_indices;  // threads of this process
    // Its latest cgroup (cgroup_sample, schema 4), and the container and pod that path names.
    std::optional<std::string> cgroup;
    std::optional<ContainerIdentity> container;
};

struct ThreadInfo {
    std::int64_t id = 0;
    std::int64_t tid = 0;
    int process_index = -1;
    std::string comm;                       // latest name
    std::vector<std::string> former_comms;  // names before renames, oldest first
    std::optional<std::int64_t> start_ns;
    std::optional<std::int64_t> exit_ns;
};

enum class OpCategory { kCopy, kKernel, kSync, kAlloc, kFree, kStream, kEvent, kOther };
const char* category_name(OpCategory category);

// cuda_op.api: which library the op is of.
enum class OpApi { kRuntime, kDriver, kNccl };
const char* op_api_name(OpApi api);  // 'runtime', 'driver', 'nccl' (as stored)

struct OpInfo {
    std::int64_t id = 0;
    std::string name;
    OpApi api = OpApi::kRuntime;  // libcudart (cuda*), libcuda (cu*) or libnccl (nccl*)
    OpCategory category = OpCategory::kOther;

    bool driver() const { return api == OpApi::kDriver; }
};

// cuda_call in memory, one column per column the analysis uses; row i of each describes call i,
// in the file's order. (copy_kind and stream_id are not held.) Held compactly
// (compact_column.hpp): about 13 bytes a call instead of 42 (11 without stacks); reading a value
// gives it as stored.
// `Mostly<Dense, kUsual>` holds a column whose rows mostly hold kUsual, in its Dense form
// otherwise; `Ids<Dense>` holds the thread and op ids; `StackIds` holds the stack ids.
template <class Time, template <class, auto> class Mostly, template <class> class Ids,
          class StackIds>
struct CallColumns {
    Ids<NarrowColumn<std::int32_t, std::uint16_t>> thread_index;
    Ids<NarrowColumn<std::int32_t, std::uint16_t>> op_index;
    Time ts_ns;
    NarrowColumn<std::int64_t, std::uint32_t> dur_ns;
    Mostly<NarrowColumn<std::int64_t, std::int32_t>, std::int64_t{-1}> bytes;  // -1: NULL
    Mostly<CallColumn<std::int8_t>, std::int8_t{-1}> host_pinned;              // -1: NULL
    Mostly<NarrowColumn<std::int32_t, std::int16_t>, std::int32_t{0}> ret;
    // stack.id of the call's user stack; -1: none recorded. (Stack ids are minted per distinct
    // stack of a process, bounded by the collector's 16384-entry stack map, so 32 bits hold them.)
    StackIds stack_id;

    std::size_t size() const { return ts_ns.size(); }
};

// As the loader fills them: every row of every column, the timestamps already as offsets in their
// blocks (0.8 GB less of fresh pages at 100M calls than at full width, and no pass to encode
// them), the stack ids already in 16 bits (a 100M-call trace's load holds 0.2 GB less at its
// peak).
template <class Dense, auto>
using EveryRow = Dense;
template <class Dense>
using EveryId = Dense;
using LoadedCallColumns =
    CallColumns<TimeColumn, EveryRow, EveryId, NarrowColumn<std::int32_t, std::int16_t>>;

// The calls without a byte count, an error or a stack take nothing in those columns (a recording
// without --stacks, the default, has no stacks at all); a thread or op id takes a byte where the
// trace has few enough of them.
struct CudaCalls
    : CallColumns<TimeColumn, MostlyUsualColumn, ByteWhenSmallColumn,
                  MostlyUsualColumn<NarrowColumn<std::int32_t, std::int16_t>, std::int32_t{-1}>> {
    CudaCalls() = default;
    // Takes the columns over; the timestamps, the ids and the mostly-usual columns are made
    // compact and the loaded ones freed.
    explicit CudaCalls(LoadedCallColumns loaded);

    // 1 when a driver call runs inside a runtime call of the same thread (cudaMemcpy calls
    // cuMemcpy*): counted in statistics, never twice in time accounting.
    FlagColumn enclosed;

    std::int64_t end_ns(std::size_t i) const { return ts_ns[i] + dur_ns[i]; }
};

// Who ended a sleep (offcpu.wake_context).
enum class Wake : std::int8_t {
    kUnknown = -1,  // not recorded (older files, imported traces)
    kNone = 0,      // no wakeup seen (preempted, or the wakeup was missed)
    kThread = 1,    // a thread: waker_thread_index
    kHardIrq = 2,   // a hard interrupt: a timer, a device completion
    kSoftIrq = 3,   // a softirq: network receive, block completion, timer wheel
};
// OffCpuInterval::syscall_nr outside any system call, and where it was not recorded.
inline constexpr std::int16_t kNoSyscall = -1;
inline constexpr std::int16_t kSyscallUnknown = -2;
// A syscall_nr from here up is read as not recorded: no architecture numbers its calls so high.
inline constexpr std::int64_t kMaxSyscall = std::numeric_limits<std::int16_t>::max();

struct OffCpuInterval {
    // 40 bytes, not 48: eight-byte fields first, flags in bits (a 100M-call trace holds 10M).
    std::int64_t ts_ns = 0;
    std::int64_t dur_ns = 0;
    std::int64_t runq_wait_ns = 0;
    // Who took the CPU; -1: the idle task, a thread not in the file, or no one (its group's CPU
    // quota stopped it: offcpu.reason 2, and the thread that got the CPU found it free).
    int next_thread_index = -1;
    int waker_thread_index = -1;  // wake == kThread: who woke it; -1 otherwise
    // A wait for CPython's GIL (offcpu.waits_for = 1), and the thread that held the GIL meanwhile:
    // the one that handed it over at the end of this wait or of the waits for it that follow
    // (gil_holders.hpp); -1 when not known.
    int gil_holder_index = -1;
    // Blocked: the system call it slept in (numbered below 32767 on every architecture).
    std::int16_t syscall_nr = kSyscallUnknown;
    Wake wake = Wake::kUnknown;
    bool gil : 1 = false;
    bool preempted : 1 = false;   // false: blocked; true: runnable (preempted or throttled)
    std::int8_t iowait : 2 = -1;  // 1: slept in an I/O wait, 0: not, -1: not recorded

    std::int64_t end_ns() const { return ts_ns + dur_ns; }
    // The moment it was woken: the end of the sleep, before the run-queue wait.
    std::int64_t woken_ns() const { return end_ns() - runq_wait_ns; }
};
static_assert(sizeof(OffCpuInterval) == 40);

struct SchedTotal {
    std::int64_t voluntary_switches = 0;
    std::int64_t involuntary_switches = 0;
    std::int64_t oncpu_ns = 0;
    std::int64_t preempted_ns = 0;
    std::int64_t blocked_ns = 0;
    std::int64_t runq_wait_ns = 0;
    std::int64_t wakeups = 0;
};

// Adds a thread's totals into `out` (any struct with these six fields), saturating: per-process
// and whole-trace sums of them.
template <class Sums>
void add_sched_totals(const SchedTotal& total, Sums& out) {
    add_to(out.oncpu_ns, total.oncpu_ns);
    add_to(out.preempted_ns, total.preempted_ns);
    add_to(out.blocked_ns, total.blocked_ns);
    add_to(out.runq_wait_ns, total.runq_wait_ns);
    add_to(out.voluntary_switches, total.voluntary_switches);
    add_to(out.involuntary_switches, total.involuntary_switches);
}

struct PageAllocBucket {
    int process_index = -1;
    std::int64_t bucket_ns = 0;
    std::int64_t count = 0;
    std::int64_t bytes = 0;
};

struct Snapshot {
    std::int64_t ts_ns = 0;
    double cpu_busy_pct = 0;
    double cpu_iowait_pct = 0;
    std::int64_t mem_available_bytes = 0;
    double load1 = 0;
    std::int64_t procs_running = 0;
    double ctxt_per_s = 0;
};

// A traced process's cgroup and the CPU quota that limits it (schema 4: cgroup_sample).
struct CgroupSample {
    std::int64_t ts_ns = 0;
    int process_index = -1;
    std::int64_t version = 0;  // 1 or 2
    std::string path;
    std::optional<std::string> limit_path;  // the group whose quota limits it; none: no quota
    std::int64_t quota_us = 0;
    std::int64_t period_us = 0;
    std::int64_t nr_periods = 0;
    std::int64_t nr_throttled = 0;
    std::int64_t throttled_ns = 0;
    // The CPUs the process may run on (cpuset, affinity); std::nullopt when not recorded.
    std::optional<std::int64_t> cpus_allowed{};

    double quota_cpus() const {
        return period_us > 0 ? static_cast<double>(quota_us) / static_cast<double>(period_us) : 0;
    }
};

// An NCCL communicator of a traced process (schema 6: nccl_comm).
struct NcclComm {
    int process_index = -1;
    std::int64_t handle = 0;               // ncclComm_t
    std::optional<std::int64_t> nranks{};  // from the call that made it; unknown otherwise
    std::optional<std::int64_t> rank{};
};

// An NCCL call's own arguments (schema 6: nccl_call), beside its cuda_call row.
struct NcclCall {
    int thread_index = -1;
    int op_index = -1;
    std::int64_t ts_ns = 0;
    int comm_index = -1;  // into TraceModel::nccl_comms; -1: none
    std::optional<std::int64_t> count{};
    std::optional<std::int64_t> peer{};
};

struct DataQualityItem {
    std::string source;
    std::string counter;
    std::int64_t value = 0;
    std::string severity;  // 'info', 'error', 'data_loss'
    std::string description;
    // The counter in tracedb's table; nullopt for a per-event counter or one this version does
    // not know (a newer recorder). Code recognises a counter by this, never by its name.
    std::optional<tracedb::DataQualityCounter> known{};

    bool is(tracedb::DataQualityCounter counter) const { return known == counter; }
};

// A finding of the analysis itself: source, name and severity from tracedb's counter table.
DataQualityItem analysis_finding(tracedb::DataQualityCounter counter, std::int64_t value,
                                 std::string description);

struct EventCount {
    int process_index = -1;  // -1: the source did not say
    std::int64_t bucket_ns = 0;
    std::int64_t bucket_dur_ns = 0;
    std::string event;
    std::int64_t count = 0;
    std::optional<std::int64_t> total_dur_ns;
    std::optional<std::int64_t> max_dur_ns;
};

struct ProbeInfo {
    std::string library;
    std::string symbol;
    std::string kind;
    bool required = false;
    bool attached = false;
    std::optional<std::string> error;
};

// One CPython frame of a recorded stack (stack_python_frame), innermost first in its stack.
struct PythonFrame {
    std::optional<std::string> file;      // co_filename; absent when the code was unreadable
    std::optional<std::string> function;  // co_qualname
    std::optional<std::int64_t> line;     // 1-based; absent when not read or no line
};

// A Python stack taken when a thread left its CPU (switch_out_stack).
struct SwitchOutSample {
    int thread_index = -1;  // the thread leaving its CPU
    std::int64_t ts_ns = 0;
    std::int64_t stack_id = 0;
    // A GPU-driving thread's own switch-out, a thread leaving a CPU it had taken from one, or a
    // thread handing the GIL to one (at the wakeup, not a switch-out).
    tracedb::SwitchRole role = tracedb::SwitchRole::kGpuThread;
    bool preempted = false;     // this switch-out's reason
    int gpu_thread_index = -1;  // competitor, GIL holder: the GPU-driving thread it preempted/woke
    std::int64_t gpu_switch_out_ns = 0;  // that thread's switch-out (ns): its interval's ts_ns
};

struct TraceModel {
    std::string path;
    SessionInfo session;
    std::vector<ProcessInfo> processes;
    std::vector<ThreadInfo> threads;
    std::vector<OpInfo> ops;
    CudaCalls calls;
    // Call indices of each thread in ts order (indexed like threads), in 2 bytes a call: a
    // thread's calls lie close together in the trace.
    std::vector<BlockOffsetColumn<std::uint32_t, std::int16_t>> calls_by_thread;
    // Off-CPU intervals of each thread in ts order (indexed like threads).
    std::vector<std::vector<OffCpuInterval>> offcpu_by_thread;
    std::vector<std::optional<SchedTotal>> sched_by_thread;
    std::vector<PageAllocBucket> page_alloc;   // sorted by bucket_ns
    std::vector<Snapshot> snapshots;           // sorted by ts_ns
    std::vector<CgroupSample> cgroup_samples;  // sorted by ts_ns (schema 4; empty before)
    std::vector<NcclComm> nccl_comms;          // schema 6; empty before
    std::vector<NcclCall> nccl_calls;          // sorted by ts_ns (schema 6; empty before)
    std::vector<DataQualityItem> data_quality;
    std::vector<EventCount> event_counts;
    std::vector<ProbeInfo> probes;
    std::int64_t stack_count = 0;
    // Python frames of each stack that has them, by stack.id (schema 3; empty before).
    std::unordered_map<std::int64_t, std::vector<PythonFrame>> python_frames;
    // Python stacks at switch-out, sorted by thread index, then ts_ns.
    std::vector<SwitchOutSample> switch_outs;
    // What a reader of any result should know: how the file was opened, rows that refer to
    // unknown threads or ops (skipped and counted here).
    std::vector<std::string> notes;

    // End of the recording: session.stop_ns, or the last event seen when it is NULL.
    std::int64_t end_ns() const;
    int find_op(const std::string& name) const;  // index into ops, -1 when unknown
    const ProcessInfo& process_of_thread(int thread_index) const {
        return processes[static_cast<std::size_t>(
            threads[static_cast<std::size_t>(thread_index)].process_index)];
    }

  private:
    friend Result<TraceModel> load_trace(const tracedb::TraceReader& reader);
    std::int64_t last_event_ns_ = 0;
};

// Reads every table of the trace once. Fails only when the file cannot be read; rows that do
// not fit (a call of an unknown thread) are skipped, counted and named in notes.
Result<TraceModel> load_trace(const tracedb::TraceReader& reader);

}  // namespace causeway::analysis
