#include "collector/attach/bpf_programs.hpp"

#include <bpf/bpf.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>

#include "bpf/causeway_abi.h"
#include "collector/attach/abi_check.hpp"
#include "collector/attach/attach_table.hpp"
#include "collector/symbols/elf_file.hpp"
#include "cuda.skel.h"
#include "lifecycle.skel.h"
#include "page_alloc.skel.h"
#include "sched.skel.h"

namespace causeway::collector {

namespace {

// enum bpf_attach_type / BPF_F_UPROBE_MULTI_RETURN of Linux 6.6, newer than libbpf 1.1's headers.
constexpr auto kUprobeMultiAttach = static_cast<bpf_attach_type>(48);
constexpr std::uint32_t kUprobeMultiReturn = 1;

// BPF_LINK_CREATE for a uprobe_multi link, laid out as in linux/bpf.h (6.6+): one link attaches
// `offsets.size()` uprobes in `path`, each with its cookie.
int create_uprobe_multi_link(int prog_fd, const std::string& path,
                             const std::vector<std::uint64_t>& offsets,
                             const std::vector<std::uint64_t>& cookies, bool retprobe) {
    struct {
        std::uint32_t prog_fd, target_fd, attach_type, flags;
        std::uint64_t path, offsets, ref_ctr_offsets, cookies;
        std::uint32_t count, multi_flags, pid, pad;
    } attr{};
    static_assert(sizeof(attr) == 64);
    attr.prog_fd = static_cast<std::uint32_t>(prog_fd);
    attr.attach_type = kUprobeMultiAttach;
    attr.path = reinterpret_cast<std::uint64_t>(path.c_str());
    attr.offsets = reinterpret_cast<std::uint64_t>(offsets.data());
    attr.cookies = reinterpret_cast<std::uint64_t>(cookies.data());
    attr.count = static_cast<std::uint32_t>(offsets.size());
    attr.multi_flags = retprobe ? kUprobeMultiReturn : 0;
    return static_cast<int>(::syscall(__NR_bpf, BPF_LINK_CREATE, &attr, sizeof(attr)));
}

std::string errno_text(int error) {
    std::string text = std::strerror(error);
    if (error == EPERM || error == EACCES) {
        text += " (need root, or CAP_BPF and CAP_PERFMON)";
    }
    return text;
}

// Opens a skeleton, lets `configure` set rodata and shared maps, then loads it.
template <class Skeleton, class Configure>
Result<Skeleton*> open_and_load(const char* name, Skeleton* (*open)(const bpf_object_open_opts*),
                                int (*load)(Skeleton*), void (*destroy)(Skeleton*),
                                Configure configure) {
    Skeleton* skeleton = open(nullptr);
    if (skeleton == nullptr) {
        return Error{std::string("cannot open the BPF program ") + name + ": " + errno_text(errno)};
    }
    if (int rc = configure(skeleton); rc != 0) {
        destroy(skeleton);
        return Error{std::string("cannot set up the BPF program ") + name + ": " + errno_text(-rc)};
    }
    if (int rc = load(skeleton); rc != 0) {
        destroy(skeleton);
        return Error{std::string("the kernel refused the BPF program ") + name + ": " +
                     errno_text(-rc) + " (run with --verbose for the verifier log)"};
    }
    return skeleton;
}

// The maps that several skeletons share (bpf/common.bpf.h) are created by the first one.
int share_maps(bpf_map* traced_tgids, bpf_map* thread_sched, const lifecycle* owner) {
    if (int rc = bpf_map__reuse_fd(traced_tgids, bpf_map__fd(owner->maps.traced_tgids)); rc) {
        return rc;
    }
    return bpf_map__reuse_fd(thread_sched, bpf_map__fd(owner->maps.thread_sched));
}

// The Python maps (bpf/python_frames.bpf.h): python_procs is the lifecycle skeleton's, the
// per-thread state and the interned stacks are the sched skeleton's.
struct PythonMaps {
    bpf_map* procs;
    bpf_map* threads;
    bpf_map* stacks;
};
int share_python_maps(const PythonMaps& maps, const lifecycle* life, const sched* owner) {
    if (int rc = bpf_map__reuse_fd(maps.procs, bpf_map__fd(life->maps.python_procs)); rc) {
        return rc;
    }
    if (int rc = bpf_map__reuse_fd(maps.threads, bpf_map__fd(owner->maps.python_threads)); rc) {
        return rc;
    }
    return bpf_map__reuse_fd(maps.stacks, bpf_map__fd(owner->maps.python_stacks));
}

}  // namespace

const char* probe_family_name(ProbeFamily family) {
    switch (family) {
        case ProbeFamily::kCuda:
            return "cuda";
        case ProbeFamily::kSched:
            return "sched";
        case ProbeFamily::kLifecycle:
            return "lifecycle";
        case ProbeFamily::kPageAlloc:
            return "page_alloc";
    }
    return "unknown";
}

void BpfPrograms::Deleter::operator()(lifecycle* s) const {
    lifecycle__destroy(s);
}
void BpfPrograms::Deleter::operator()(sched* s) const {
    sched__destroy(s);
}
void BpfPrograms::Deleter::operator()(cuda* s) const {
    cuda__destroy(s);
}
void BpfPrograms::Deleter::operator()(page_alloc* s) const {
    page_alloc__destroy(s);
}

BpfPrograms::~BpfPrograms() = default;

Result<std::unique_ptr<BpfPrograms>> BpfPrograms::load(const LoadConfig& config) {
    std::unique_ptr<BpfPrograms> programs(new BpfPrograms());
    auto life = open_and_load<lifecycle>("lifecycle", lifecycle__open_opts, lifecycle__load,
                                         lifecycle__destroy, [&](lifecycle* s) {
                                             s->rodata->stop_on_loader = config.stop_on_dlopen;
                                             return 0;
                                         });
    if (!life) {
        return life.error();
    }
    programs->lifecycle_.reset(*life);
    const lifecycle* owner = programs->lifecycle_.get();

    auto sch =
        open_and_load<sched>("sched", sched__open_opts, sched__load, sched__destroy, [&](sched* s) {
            s->rodata->offcpu_floor_ns = config.offcpu_floor_ns;
            s->rodata->walk_python = config.walk_python;
            s->rodata->python_sample_gap_ns = config.python_sample_gap_ns;
            if (!config.walk_python) {
                bpf_map__set_max_entries(s->maps.python_stacks, 1);  // unused: keep it small
            }
            if (int rc = bpf_map__reuse_fd(s->maps.python_procs,
                                           bpf_map__fd(owner->maps.python_procs))) {
                return rc;
            }
            return share_maps(s->maps.traced_tgids, s->maps.thread_sched, owner);
        });
    if (!sch) {
        return sch.error();
    }
    programs->sched_.reset(*sch);

    // CUDA programs as uprobe_multi (one link per library and direction: attach and detach
    // cost one RCU grace period instead of one per symbol); kernels before 6.6 refuse that
    // attach type, and then the same programs load as plain uprobes.
    auto load_cuda = [&](bool multi) {
        return open_and_load<cuda>(
            "cuda", cuda__open_opts, cuda__load, cuda__destroy, [&](cuda* s) {
                if (multi) {
                    bpf_program__set_expected_attach_type(s->progs.cw_cuda_entry,
                                                          kUprobeMultiAttach);
                    bpf_program__set_expected_attach_type(s->progs.cw_cuda_return,
                                                          kUprobeMultiAttach);
                }
                if (int rc =
                        bpf_map__set_max_entries(s->maps.cuda_events, config.cuda_ring_bytes)) {
                    return rc;
                }
                s->rodata->record_stacks = config.record_stacks;
                s->rodata->walk_python = config.walk_python;
                if (!config.record_stacks) {
                    bpf_map__set_max_entries(s->maps.user_stacks, 1);  // unused: keep it small
                }
                if (int rc = share_python_maps(
                        {s->maps.python_procs, s->maps.python_threads, s->maps.python_stacks},
                        owner, programs->sched_.get())) {
                    return rc;
                }
                // The lifecycle programs free a thread's slot when it exits.
                if (int rc = bpf_map__reuse_fd(s->maps.open_call_slots,
                                               bpf_map__fd(owner->maps.open_call_slots))) {
                    return rc;
                }
                return share_maps(s->maps.traced_tgids, s->maps.thread_sched, owner);
            });
    };
    auto cu = config.uprobe_multi ? load_cuda(true) : load_cuda(false);
    programs->uprobe_multi_ = config.uprobe_multi && cu.ok();
    if (!cu && config.uprobe_multi) {
        cu = load_cuda(false);
    }
    if (!cu) {
        return cu.error();
    }
    programs->cuda_.reset(*cu);

    auto pages = open_and_load<page_alloc>(
        "page_alloc", page_alloc__open_opts, page_alloc__load, page_alloc__destroy,
        [&](page_alloc* s) {
            s->rodata->session_start_ns = config.session_start_ns;
            s->rodata->page_bucket_ns = config.page_bucket_ns;
            return share_maps(s->maps.traced_tgids, s->maps.thread_sched, owner);
        });
    if (!pages) {
        return pages.error();
    }
    programs->page_alloc_.reset(*pages);
    return programs;
}

Status BpfPrograms::trace_process(int tgid) {
    std::uint32_t key = static_cast<std::uint32_t>(tgid);
    std::uint8_t one = 1;
    if (bpf_map_update_elem(bpf_map__fd(lifecycle_->maps.traced_tgids), &key, &one, BPF_ANY)) {
        return Error{"cannot add pid " + std::to_string(tgid) +
                     " to the traced set: " + errno_text(errno)};
    }
    return Ok{};
}

tracedb::ProbeRecord BpfPrograms::attach(bpf_program* program, const std::string& library,
                                         const std::string& symbol, const char* kind,
                                         bool required) {
    tracedb::ProbeRecord record{library, symbol, kind, required, false, std::nullopt};
    bpf_link* link = bpf_program__attach(program);
    if (link == nullptr) {
        record.error = errno_text(errno);
        return record;
    }
    links_.emplace_back(link);
    ++attached_;
    record.attached = true;
    return record;
}

tracedb::ProbeRecord BpfPrograms::attach_uprobe(bpf_program* program, const std::string& library,
                                                const char* symbol, bool retprobe,
                                                std::uint64_t cookie, bool required) {
    tracedb::ProbeRecord record{library,  symbol, retprobe ? "uretprobe" : "uprobe",
                                required, false,  std::nullopt};
    LIBBPF_OPTS(bpf_uprobe_opts, options, .bpf_cookie = cookie, .retprobe = retprobe,
                .func_name = symbol);
    bpf_link* link = bpf_program__attach_uprobe_opts(program, -1, library.c_str(), 0, &options);
    if (link == nullptr) {
        int error = errno;
        record.error =
            error == ENOENT ? std::string("symbol not found in the library") : errno_text(error);
        return record;
    }
    links_.emplace_back(link);
    ++attached_;
    record.attached = true;
    return record;
}

std::vector<tracedb::ProbeRecord> BpfPrograms::attach_tracepoints() {
    struct Tracepoint {
        bpf_program* program;
        const char* name;
    };
    const Tracepoint tracepoints[] = {
        {sched_->progs.cw_sched_switch, "sched_switch"},
        {sched_->progs.cw_sched_waking, "sched_waking"},
        {sched_->progs.cw_sched_wakeup_new, "sched_wakeup_new"},
        {sched_->progs.cw_irq_entry, "irq_handler_entry"},
        {sched_->progs.cw_irq_exit, "irq_handler_exit"},
        {sched_->progs.cw_hrtimer_entry, "hrtimer_expire_entry"},
        {sched_->progs.cw_hrtimer_exit, "hrtimer_expire_exit"},
        {sched_->progs.cw_softirq_entry, "softirq_entry"},
        {sched_->progs.cw_softirq_exit, "softirq_exit"},
        {lifecycle_->progs.cw_process_fork, "sched_process_fork"},
        {lifecycle_->progs.cw_process_exec, "sched_process_exec"},
        {lifecycle_->progs.cw_process_exit, "sched_process_exit"},
        {lifecycle_->progs.cw_task_rename, "task_rename"},
        {page_alloc_->progs.cw_page_alloc, "mm_page_alloc"},
    };
    std::vector<tracedb::ProbeRecord> records;
    for (const auto& tp : tracepoints) {
        records.push_back(attach(tp.program, "", tp.name, "tp_btf", true));
    }
    return records;
}

tracedb::ProbeRecord BpfPrograms::attach_loader(const std::string& path) {
    auto record =
        attach_uprobe(lifecycle_->progs.cw_loader_update, path, "_dl_debug_state", false, 0, false);
    if (record.attached) {
        loader_link_ = links_.back().get();
    }
    return record;
}

void BpfPrograms::detach_loader() {
    std::erase_if(links_, [this](const auto& link) { return link.get() == loader_link_; });
    loader_link_ = nullptr;
}

// A function's return probe is attached before its entry probe: a call that
// enters between the two in a running process (--pid) would otherwise be seen entering and never
// returning, and stay open in the kernel's per-thread nesting as the caller of every later call.
std::vector<tracedb::ProbeRecord> BpfPrograms::attach_cuda_library(const CudaLibrary& library) {
    return uprobe_multi_ ? attach_cuda_multi(library) : attach_cuda_one_by_one(library);
}

std::vector<tracedb::ProbeRecord> BpfPrograms::attach_cuda_one_by_one(const CudaLibrary& library) {
    std::vector<tracedb::ProbeRecord> records;
    for (const auto& symbol : cuda_symbols()) {
        if (symbol.library != library.kind) {
            continue;
        }
        // The return probe first (attach_cuda_library says why).
        auto exit = attach_uprobe(cuda_->progs.cw_cuda_return, library.path, symbol.name, true,
                                  symbol.op, symbol.required);
        auto entry = attach_uprobe(cuda_->progs.cw_cuda_entry, library.path, symbol.name, false,
                                   symbol.op, symbol.required);
        const bool entry_attached = entry.attached;
        records.push_back(std::move(entry));
        if (!entry_attached) {
            // A return probe without its entry would only count unmatched returns.
            if (exit.attached) {
                links_.pop_back();
                --attached_;
            }
            continue;
        }
        records.push_back(std::move(exit));
    }
    return records;
}

std::vector<tracedb::ProbeRecord> BpfPrograms::attach_cuda_multi(const CudaLibrary& library) {
    std::vector<const CudaSymbol*> symbols;
    std::vector<std::string> names;
    for (const auto& symbol : cuda_symbols()) {
        if (symbol.library == library.kind) {
            symbols.push_back(&symbol);
            names.push_back(symbol.name);
        }
    }
    auto file = ElfFile::open(library.path);
    auto offsets = file ? file->function_offsets(names) : std::map<std::string, std::uint64_t>{};
    std::vector<std::uint64_t> found_offsets, cookies;
    for (const CudaSymbol* symbol : symbols) {
        if (offsets.count(symbol->name)) {
            found_offsets.push_back(offsets.at(symbol->name));
            cookies.push_back(symbol->op);
        }
    }
    std::optional<std::string> link_error;
    if (!file) {
        link_error = file.error().message;
    } else if (!found_offsets.empty()) {
        for (bool retprobe : {true, false}) {  // return probes first (attach_cuda_library)
            bpf_program* program =
                retprobe ? cuda_->progs.cw_cuda_return : cuda_->progs.cw_cuda_entry;
            UniqueFd link(create_uprobe_multi_link(bpf_program__fd(program), library.path,
                                                   found_offsets, cookies, retprobe));
            if (!link) {
                link_error = errno_text(errno);
                break;
            }
            multi_links_.push_back(std::move(link));
        }
    }
    std::vector<tracedb::ProbeRecord> records;
    for (const CudaSymbol* symbol : symbols) {
        for (const char* kind : {"uprobe", "uretprobe"}) {
            tracedb::ProbeRecord record{library.path,     symbol->name, kind,
                                        symbol->required, false,        std::nullopt};
            if (link_error) {
                record.error = link_error;
            } else if (!offsets.count(symbol->name)) {
                record.error = "symbol not found in the library";
            } else {
                record.attached = true;
                ++attached_;
            }
            records.push_back(std::move(record));
        }
    }
    return records;
}

int BpfPrograms::cuda_events_fd() const {
    return bpf_map__fd(cuda_->maps.cuda_events);
}
int BpfPrograms::sched_events_fd() const {
    return bpf_map__fd(sched_->maps.sched_events);
}
int BpfPrograms::life_events_fd() const {
    return bpf_map__fd(lifecycle_->maps.life_events);
}
int BpfPrograms::thread_sched_fd() const {
    return bpf_map__fd(lifecycle_->maps.thread_sched);
}
int BpfPrograms::page_buckets_fd() const {
    return bpf_map__fd(page_alloc_->maps.page_buckets);
}
int BpfPrograms::user_stacks_fd() const {
    return bpf_map__fd(cuda_->maps.user_stacks);
}
int BpfPrograms::python_stacks_fd() const {
    return bpf_map__fd(sched_->maps.python_stacks);
}
int BpfPrograms::stack_samples_fd() const {
    return bpf_map__fd(sched_->maps.stack_samples);
}

Status BpfPrograms::set_python_process(std::uint32_t tgid, const cw_python_process& layout) {
    if (bpf_map_update_elem(bpf_map__fd(lifecycle_->maps.python_procs), &tgid, &layout, BPF_ANY)) {
        return Error{"cannot let the kernel walk the Python frames of pid " + std::to_string(tgid) +
                     ": " + errno_text(errno)};
    }
    return Ok{};
}

cw_python_counters BpfPrograms::python_counters() const {
    cw_python_counters total{};
    for (const volatile cw_python_counters* c :
         {&cuda_->bss->python_counters, &sched_->bss->python_counters}) {
        total.walks += c->walks;
        total.no_thread_state += c->no_thread_state;
        total.read_errors += c->read_errors;
        total.truncated += c->truncated;
        total.collisions += c->collisions;
        total.map_full += c->map_full;
        total.rate_limited += c->rate_limited;
        total.ringbuf_drops += c->ringbuf_drops;
    }
    return total;
}

int BpfPrograms::loader_stopped_fd() const {
    return bpf_map__fd(lifecycle_->maps.loader_stopped);
}

std::vector<std::uint32_t> BpfPrograms::traced_processes() const {
    int fd = bpf_map__fd(lifecycle_->maps.traced_tgids);
    // A walk of a hash map that changes meanwhile can start over: bounded, duplicates are
    // harmless to the callers (signals).
    constexpr std::size_t kMostKeys = 4 * CW_MAX_TRACED_PROCESSES;  // 4 x traced_tgids' size
    std::vector<std::uint32_t> tgids;
    std::uint32_t key = 0, next = 0;
    for (bool first = true;
         tgids.size() < kMostKeys && bpf_map_get_next_key(fd, first ? nullptr : &key, &next) == 0;
         first = false) {
        tgids.push_back(next);
        key = next;
    }
    return tgids;
}

cw_kernel_counters BpfPrograms::counters(ProbeFamily family) const {
    const volatile cw_kernel_counters* source = nullptr;
    switch (family) {
        case ProbeFamily::kCuda:
            source = &cuda_->bss->counters;
            break;
        case ProbeFamily::kSched:
            source = &sched_->bss->counters;
            break;
        case ProbeFamily::kLifecycle:
            source = &lifecycle_->bss->counters;
            break;
        case ProbeFamily::kPageAlloc:
            source = &page_alloc_->bss->counters;
            break;
    }
    return {source->ringbuf_drops, source->unmatched_returns, source->entries_lost,
            source->map_full, source->unmatched_switches};
}

}  // namespace causeway::collector
