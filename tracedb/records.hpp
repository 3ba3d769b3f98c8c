#pragma once
// One plain struct per trace-DB table, as the writer takes them. Field units follow the column
// names in schemas/trace.sql; std::nullopt is stored as NULL ("not known").

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace causeway::tracedb {

struct SessionRecord {
    std::string host{};
    std::string kernel{};
    std::int64_t cpu_count = 0;
    std::optional<std::string> machine{};  // uname machine: how offcpu syscall numbers count
    std::optional<std::string> cpu_model{};
    std::optional<std::int64_t> mem_total_bytes{};
    std::optional<std::string> gpu{};
    std::optional<std::int64_t> gpu_link_mts{};    // PCIe MT/s per lane; NULL: not read
    std::optional<std::int64_t> gpu_link_width{};  // PCIe lanes; NULL: not read
    std::optional<std::string> command_line{};
    std::string collector_version{};
    std::string collector_flags{};
    std::string source = "causeway-collector";
    std::int64_t offcpu_floor_ns = 50'000;
    std::int64_t page_bucket_ns = 100'000'000;
    std::optional<std::int64_t> python_sample_gap_ns{};  // NULL: Python frames not walked
    std::int64_t start_mono_ns = 0;
    std::int64_t start_wall_ns = 0;
};

struct ProcessRecord {
    std::int64_t pid = 0;
    std::optional<std::int64_t> parent_id{};
    std::optional<std::int64_t> ppid{};
    std::string comm{};
    std::optional<std::string> cmdline{};
    bool in_tree = true;
    std::optional<std::int64_t> start_ns{};
    std::optional<std::int64_t> exec_ns{};
    std::optional<std::int64_t> exit_ns{};
    std::optional<std::int64_t> exit_code{};
};

struct ThreadRecord {
    std::int64_t tid = 0;
    std::int64_t process_id = 0;
    std::string comm{};
    std::optional<std::int64_t> start_ns{};
    std::optional<std::int64_t> exit_ns{};
};

struct CudaCallRecord {
    std::int64_t thread_id = 0;
    std::int64_t op_id = 0;
    std::int64_t ts_ns = 0;
    std::int64_t dur_ns = 0;
    std::optional<std::int64_t> bytes{};
    std::optional<std::int64_t> copy_kind{};
    std::optional<std::int64_t> host_pinned{};
    std::optional<std::int64_t> stream_id{};
    std::int64_t ret = 0;
    std::optional<std::int64_t> stack_id{};
};

// nccl_call: NCCL's own arguments of one NCCL call, beside its cuda_call row.
struct NcclCallRecord {
    std::int64_t thread_id = 0;
    std::int64_t ts_ns = 0;
    std::int64_t op_id = 0;
    std::optional<std::int64_t> comm_id{};
    std::optional<std::int64_t> count{};
    std::optional<std::int64_t> datatype{};
    std::optional<std::int64_t> redop{};
    std::optional<std::int64_t> peer{};
};

enum class OffCpuReason : std::int64_t { kPreempted = 0, kBlocked = 1, kThrottled = 2 };
// offcpu.wake_context: who ended a sleep.
enum class WakeContext : std::int64_t { kNone = 0, kThread = 1, kHardIrq = 2, kSoftIrq = 3 };
// offcpu.syscall_nr of a sleep outside any system call.
inline constexpr std::int64_t kNoSyscall = -1;

// offcpu.waits_for: what a blocked thread waited for, where the recorder could tell.
enum class WaitsFor : std::int64_t {
    kUnknown = 0,  // not told: any other sleep
    kGil = 1,      // CPython's GIL (a futex inside the process's _PyRuntime)
};

struct OffCpuRecord {
    std::int64_t thread_id = 0;
    std::int64_t ts_ns = 0;
    std::int64_t dur_ns = 0;
    OffCpuReason reason = OffCpuReason::kBlocked;
    std::int64_t runq_wait_ns = 0;
    std::int64_t cpu = 0;
    std::optional<std::int64_t> next_thread_id{};
    // Who ended a sleep and what it slept in; std::nullopt where the source did not record it.
    std::optional<WakeContext> wake_context{};
    std::optional<std::int64_t> waker_thread_id{};
    std::optional<std::int64_t> syscall_nr{};
    std::optional<bool> iowait{};
    std::optional<WaitsFor> waits_for{};
};

struct ThreadSchedTotalRecord {
    std::int64_t thread_id = 0;
    std::int64_t voluntary_switches = 0;
    std::int64_t involuntary_switches = 0;
    std::int64_t oncpu_ns = 0;
    std::int64_t preempted_ns = 0;
    std::int64_t blocked_ns = 0;
    std::int64_t runq_wait_ns = 0;
    std::int64_t wakeups = 0;
};

struct PageAllocRecord {
    std::int64_t process_id = 0;
    std::int64_t bucket_ns = 0;
    std::int64_t count = 0;
    std::int64_t bytes = 0;
};

// A traced process's cgroup and the CPU quota that limits it, at ts_ns (schema: cgroup_sample).
struct CgroupSampleRecord {
    std::int64_t ts_ns = 0;
    std::int64_t process_id = 0;
    std::int64_t version = 0;  // 1 or 2
    std::string path;
    std::optional<std::string> limit_path{};  // std::nullopt: no quota up the hierarchy
    std::optional<std::int64_t> quota_us{};
    std::optional<std::int64_t> period_us{};
    std::optional<std::int64_t> nr_periods{};
    std::optional<std::int64_t> nr_throttled{};
    std::optional<std::int64_t> throttled_ns{};
    std::optional<std::int64_t> cpus_allowed{};  // its affinity's CPUs; traced processes only
};

struct SnapshotRecord {
    std::int64_t ts_ns = 0;
    double cpu_busy_pct = 0;
    double cpu_user_pct = 0;
    double cpu_system_pct = 0;
    double cpu_iowait_pct = 0;
    std::int64_t mem_total_bytes = 0;
    std::int64_t mem_available_bytes = 0;
    double load1 = 0;
    std::int64_t procs_running = 0;
    double ctxt_per_s = 0;
};

struct StackFrameRecord {
    std::int64_t depth = 0;
    std::int64_t address = 0;
    std::optional<std::string> module{};
    std::optional<std::string> symbol{};
    std::optional<std::int64_t> offset{};
};

// probe.error of a symbol the library does not export: nothing calls it there, so nothing is
// lost (the collector and the analysis both tell it from a failed attach by this text).
inline constexpr const char* kSymbolNotExported = "symbol not found in the library";

// One Python frame of a stack (stack_python_frame).
struct PythonFrameRecord {
    std::int64_t depth = 0;  // 0 = innermost
    std::optional<std::string> file{};
    std::optional<std::string> function{};
    std::optional<std::int64_t> line{};
    std::int64_t first_line = 0;
    std::int64_t code_address = 0;
    std::int64_t instr_offset = 0;  // bytes
};

// The Python frames of a stack, and whether the thread had more than were kept.
struct PythonStackRecord {
    std::vector<PythonFrameRecord> frames{};
    bool truncated = false;
};

// switch_out_stack.role
enum class SwitchRole : std::int64_t { kGpuThread = 0, kCompetitor = 1, kGilHolder = 2 };

struct SwitchOutStackRecord {
    std::int64_t thread_id = 0;
    std::int64_t ts_ns = 0;
    std::int64_t stack_id = 0;
    SwitchRole role = SwitchRole::kGpuThread;
    OffCpuReason reason = OffCpuReason::kBlocked;
    std::optional<std::int64_t> gpu_thread_id{};
    std::optional<std::int64_t> gpu_switch_out_ns{};
};

struct ProbeRecord {
    std::string library{};
    std::string symbol{};
    std::string kind{};  // "uprobe", "uretprobe", "tp_btf"
    bool required = false;
    bool attached = false;
    std::optional<std::string> error{};
};

// A row of cuda_op (schemas/trace.sql).
struct CudaOpRecord {
    std::int64_t id = 0;
    std::string name{};
    std::string api{};  // 'runtime', 'driver'
    std::string
        category{};  // 'copy', 'kernel', 'sync', 'alloc', 'free', 'stream', 'event', 'other'
};

enum class Severity { kInfo, kError, kDataLoss };
const char* severity_name(Severity severity);

struct DataQualityRecord {
    std::string source{};
    std::string counter{};
    std::int64_t value = 0;
    Severity severity = Severity::kInfo;
    std::string description{};
};

struct EventCountRecord {
    std::optional<std::int64_t> process_id{};
    std::int64_t bucket_ns = 0;
    std::int64_t bucket_dur_ns = 0;
    std::string event{};
    std::int64_t count = 0;
    std::int64_t stored = 0;
    std::optional<std::int64_t> total_dur_ns{};
    std::optional<std::int64_t> max_dur_ns{};
};

}  // namespace causeway::tracedb
