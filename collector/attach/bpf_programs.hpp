#pragma once
// The loaded BPF programs of one recording: the four skeletons of bpf/, their attachments, and
// typed access to the maps user space reads. Owns every libbpf handle (RAII); links are
// destroyed before the skeletons that hold their programs.

#include <bpf/libbpf.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "base/unique_fd.hpp"
#include "collector/discover/discovery.hpp"
#include "tracedb/records.hpp"

struct lifecycle;
struct sched;
struct cuda;
struct page_alloc;
struct cw_kernel_counters;
struct cw_python_counters;
struct cw_python_process;

namespace causeway::collector {

struct LoadConfig {
    std::uint64_t offcpu_floor_ns = 50'000;
    std::uint64_t session_start_ns = 0;  // CLOCK_MONOTONIC zero of the page buckets
    std::uint64_t page_bucket_ns = 100'000'000;
    bool stop_on_dlopen = true;
    bool uprobe_multi = true;                        // try uprobe_multi links first
    bool record_stacks = false;                      // fill user_stacks and stack ids
    bool walk_python = false;                        // walk CPython frames (needs record_stacks)
    std::uint64_t python_sample_gap_ns = 1'000'000;  // per thread, between switch-out walks
    std::uint32_t cuda_ring_bytes = 64u << 20;       // power of two
};

// The skeletons that count their losses; names are data_quality.source values.
enum class ProbeFamily { kCuda, kSched, kLifecycle, kPageAlloc };
const char* probe_family_name(ProbeFamily family);

class BpfPrograms {
  public:
    // Opens and loads all four skeletons (sharing traced_tgids and thread_sched). Errors say which
    // program failed and libbpf's reason.
    static Result<std::unique_ptr<BpfPrograms>> load(const LoadConfig& config);
    ~BpfPrograms();
    BpfPrograms(const BpfPrograms&) = delete;
    BpfPrograms& operator=(const BpfPrograms&) = delete;

    // Adds a process to the in-kernel filter (its threads and future children are traced).
    Status trace_process(int tgid);

    // Scheduling, lifecycle and page-allocation tracepoints (all required).
    std::vector<tracedb::ProbeRecord> attach_tracepoints();
    // The dynamic loader's _dl_debug_state in the loader file `path` (late dlopen catching).
    tracedb::ProbeRecord attach_loader(const std::string& path);
    // Detaches it: no process is stopped at a dlopen from then on.
    void detach_loader();
    // Entry and return uprobes for every symbol of the attach table that fits the library.
    std::vector<tracedb::ProbeRecord> attach_cuda_library(const CudaLibrary& library);

    int cuda_events_fd() const;
    int sched_events_fd() const;
    int life_events_fd() const;
    int thread_sched_fd() const;
    int page_buckets_fd() const;
    int user_stacks_fd() const;
    // tgids of the processes stopped at a link-map change and not yet continued.
    int loader_stopped_fd() const;
    // tgids of the traced tree as the kernel follows it now.
    std::vector<std::uint32_t> traced_processes() const;
    int python_stacks_fd() const;
    int stack_samples_fd() const;
    // Lets the kernel walk the Python frames of process `tgid` (python_procs).
    Status set_python_process(std::uint32_t tgid, const cw_python_process& layout);
    // Python walks of the CUDA and sched programs, added up.
    cw_python_counters python_counters() const;
    // Kernel-side loss counters of one family (read from its .bss; they only grow).
    cw_kernel_counters counters(ProbeFamily family) const;
    // Uprobes and tracepoints attached so far (count).
    std::int64_t attached_count() const { return attached_; }
    // True when CUDA symbols are attached with one uprobe_multi link per library and direction
    // (kernel 6.6+); otherwise one perf-event uprobe per symbol.
    bool uses_uprobe_multi() const { return uprobe_multi_; }

  private:
    BpfPrograms() = default;
    tracedb::ProbeRecord attach(bpf_program* program, const std::string& library,
                                const std::string& symbol, const char* kind, bool required);
    tracedb::ProbeRecord attach_uprobe(bpf_program* program, const std::string& library,
                                       const char* symbol, bool retprobe, std::uint64_t cookie,
                                       bool required);
    std::vector<tracedb::ProbeRecord> attach_cuda_one_by_one(const CudaLibrary& library);
    std::vector<tracedb::ProbeRecord> attach_cuda_multi(const CudaLibrary& library);

    struct Deleter {
        void operator()(lifecycle* skeleton) const;
        void operator()(sched* skeleton) const;
        void operator()(cuda* skeleton) const;
        void operator()(page_alloc* skeleton) const;
        void operator()(bpf_link* link) const { bpf_link__destroy(link); }
    };
    std::unique_ptr<lifecycle, Deleter> lifecycle_;
    std::unique_ptr<sched, Deleter> sched_;
    std::unique_ptr<cuda, Deleter> cuda_;
    std::unique_ptr<page_alloc, Deleter> page_alloc_;
    std::vector<std::unique_ptr<bpf_link, Deleter>> links_;  // after the skeletons: freed first
    std::vector<UniqueFd> multi_links_;                      // uprobe_multi links
    bpf_link* loader_link_ = nullptr;                        // one of links_; null when none
    std::int64_t attached_ = 0;
    bool uprobe_multi_ = false;
};

}  // namespace causeway::collector
