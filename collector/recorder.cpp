#include "collector/recorder.hpp"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>

#include "collector/bpf_programs.hpp"
#include "collector/data_quality.hpp"
#include "collector/discovery.hpp"
#include "collector/event_writer.hpp"
#include "collector/kernel_maps.hpp"
#include "collector/launcher.hpp"
#include "collector/loader_stop_guard.hpp"
#include "collector/progress.hpp"
#include "collector/python_processes.hpp"
#include "collector/readiness.hpp"
#include "collector/session_info.hpp"
#include "collector/system_sampler.hpp"
#include "collector/thread_registry.hpp"
#include "tracedb/data_quality_counters.hpp"

namespace causeway::collector {

namespace {

std::atomic<int> g_stop_signal{0};

void on_stop_signal(int signo) {
    g_stop_signal.store(signo);
}

std::int64_t monotonic_ns() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

constexpr std::int64_t kTickNs = 1'000'000'000;  // snapshots, totals, commit, progress
constexpr int kPollTimeoutMs = 20;               // CUDA and sched rings wake nobody
// Records taken from one ring per loop turn, so snapshots, commits and late libraries are not
// starved while a busy workload keeps a ring full.
constexpr std::int64_t kRecordsPerTurn = 65'536;
constexpr int kTurnBudgetSpent = -EAGAIN;  // a callback's "stop here, not an error"
constexpr const char* kSystemLoader = "/lib64/ld-linux-x86-64.so.2";
// How long the exits after a SIGKILL are waited for, to be in the trace.
constexpr double kKillWaitS = 2;

struct RingDeleter {
    void operator()(ring_buffer* ring) const { ring_buffer__free(ring); }
};
using Ring = std::unique_ptr<ring_buffer, RingDeleter>;

// Children (transitively) of the given pids, from /proc/*/stat.
std::vector<int> with_descendants(const std::vector<int>& roots) {
    std::vector<std::pair<int, int>> parent_of;  // (pid, ppid)
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator("/proc", error)) {
        std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) {
            continue;
        }
        std::ifstream in(entry.path() / "stat");
        std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        auto close = stat.rfind(')');
        if (close == std::string::npos) {
            continue;
        }
        std::istringstream fields(stat.substr(close + 1));
        std::string state;
        int ppid = 0;
        fields >> state >> ppid;
        parent_of.emplace_back(std::stoi(name), ppid);
    }
    std::vector<int> result = roots;
    std::set<int> seen(roots.begin(), roots.end());
    for (std::size_t i = 0; i < result.size(); ++i) {
        for (const auto& [pid, ppid] : parent_of) {
            if (ppid == result[i] && seen.insert(pid).second) {
                result.push_back(pid);
            }
        }
    }
    return result;
}

int print_libbpf_verbose(libbpf_print_level, const char* format, va_list args) {
    return std::vfprintf(stderr, format, args);
}

int print_libbpf_quiet(libbpf_print_level, const char*, va_list) {
    return 0;
}

class Recorder {
  public:
    Recorder(const RecordOptions& options, tracedb::SessionRecord session,
             tracedb::TraceWriter writer)
        : options_(options),
          session_(std::move(session)),
          writer_(std::move(writer)),
          registry_(writer_, session_.start_mono_ns),
          events_(writer_, registry_, session_.start_mono_ns) {}

    Result<RecordSummary> run(const DiscoveryResult& discovered);

  private:
    Status start(const DiscoveryResult& discovered);
    Status open_rings();
    Status attach_library(const CudaLibrary& library);
    Status put_probes(const std::vector<tracedb::ProbeRecord>& probes);
    Status consume_once();
    // Counts one record against the turn's budget for its ring; kTurnBudgetSpent when used up.
    int spend(std::int64_t& budget);
    Status handle_loader_events();
    Status tick(bool final);
    // One turn of the loop: the rings, and the once-a-second work when it is due.
    Status record_turn();
    bool should_stop();
    bool command_running();
    Status end_command();
    void release_loader_stops();
    LossCounters losses() const;
    void note(const std::string& message) const;

    static int on_cuda(void* self, void* data, std::size_t size);
    static int on_sched(void* self, void* data, std::size_t size);
    static int on_life(void* self, void* data, std::size_t size);
    static int on_stack_sample(void* self, void* data, std::size_t size);
    Status start_python_frames();
    Status inspect_python(std::uint32_t tgid);
    int fail(Status status);

    const RecordOptions& options_;
    tracedb::SessionRecord session_;
    tracedb::TraceWriter writer_;
    ThreadRegistry registry_;
    EventWriter events_;
    SystemSampler sampler_;
    std::optional<HeldChild> child_;
    std::unique_ptr<BpfPrograms> programs_;
    std::optional<LoaderStopGuard> guard_;     // while the command may be stopped at a dlopen
    std::optional<PythonProcesses> python_;    // with --stacks and Python frames on
    Ring life_ring_, sched_ring_, cuda_ring_;  // after programs_: freed before the maps
    Ring stack_ring_;                          // switch-out Python stacks

    std::set<std::string> attached_libraries_;
    std::set<std::uint32_t> loader_stops_;  // processes stopped at a link-map change
    std::optional<Error> callback_error_;
    std::int64_t sched_events_ = 0;
    std::int64_t life_events_ = 0;
    std::int64_t processes_seen_ = 0;
    std::int64_t optional_missing_ = 0;
    std::int64_t required_missing_ = 0;
    std::int64_t symbols_not_exported_ = 0;
    std::int64_t next_tick_ns_ = 0;
    std::int64_t sched_budget_ = 0;
    std::int64_t cuda_budget_ = 0;
    bool rings_busy_ = false;  // the last turn used up a budget: poll again without waiting
    ProgressSample last_progress_{};
};

void Recorder::note(const std::string& message) const {
    if (!options_.quiet) {
        std::fprintf(stderr, "causeway-collector: %s\n", message.c_str());
    }
}

int Recorder::spend(std::int64_t& budget) {
    if (--budget > 0) {
        return 0;
    }
    rings_busy_ = true;
    return kTurnBudgetSpent;
}

int Recorder::fail(Status status) {
    if (!status && !callback_error_) {
        callback_error_ = status.error();
    }
    return status ? 0 : -1;
}

int Recorder::on_cuda(void* self, void* data, std::size_t size) {
    auto* recorder = static_cast<Recorder*>(self);
    if (size < sizeof(cw_cuda_call)) {
        return 0;
    }
    cw_cuda_call event;
    std::memcpy(&event, data, sizeof(event));
    if (int rc = recorder->fail(recorder->events_.on_cuda_call(event)); rc != 0) {
        return rc;
    }
    return recorder->spend(recorder->cuda_budget_);
}

int Recorder::on_sched(void* self, void* data, std::size_t size) {
    auto* recorder = static_cast<Recorder*>(self);
    if (size < sizeof(cw_offcpu)) {
        return 0;
    }
    cw_offcpu event;
    std::memcpy(&event, data, sizeof(event));
    ++recorder->sched_events_;
    if (int rc = recorder->fail(recorder->events_.on_offcpu(event)); rc != 0) {
        return rc;
    }
    return recorder->spend(recorder->sched_budget_);
}

int Recorder::on_life(void* self, void* data, std::size_t size) {
    auto* recorder = static_cast<Recorder*>(self);
    if (size < sizeof(cw_life_event)) {
        return 0;
    }
    cw_life_event event;
    std::memcpy(&event, data, sizeof(event));
    ++recorder->life_events_;
    if (event.kind == CW_LIFE_LOADER) {
        recorder->loader_stops_.insert(event.tgid);
        return 0;
    }
    if (event.kind == CW_LIFE_FORK) {
        ++recorder->processes_seen_;
    }
    if (int rc = recorder->fail(recorder->registry_.on_life_event(event)); rc != 0) {
        return rc;
    }
    if (recorder->python_ && event.kind == CW_LIFE_FORK) {
        recorder->python_->on_fork(event.ppid, event.tgid);
    } else if (recorder->python_ && event.kind == CW_LIFE_EXEC) {
        recorder->python_->on_exec(event.tgid);
        return recorder->fail(recorder->inspect_python(event.tgid));
    }
    return 0;
}

int Recorder::on_stack_sample(void* self, void* data, std::size_t size) {
    auto* recorder = static_cast<Recorder*>(self);
    if (size < sizeof(cw_switch_stack)) {
        return 0;
    }
    cw_switch_stack event;
    std::memcpy(&event, data, sizeof(event));
    return recorder->fail(recorder->events_.on_switch_stack(event));
}

Status Recorder::inspect_python(std::uint32_t tgid) {
    return python_ ? python_->inspect(tgid) : Status{Ok{}};
}

Status Recorder::start_python_frames() {
    python_.emplace([this](std::uint32_t tgid, const cw_python_process& layout) {
        return programs_->set_python_process(tgid, layout);
    });
    events_.record_python_stacks(
        [fd = programs_->python_stacks_fd()](std::uint32_t key) -> std::optional<cw_python_stack> {
            cw_python_stack stack{};
            if (bpf_map_lookup_elem(fd, &key, &stack) != 0) {
                return std::nullopt;
            }
            return stack;
        },
        *python_);
    stack_ring_.reset(
        ring_buffer__new(programs_->stack_samples_fd(), on_stack_sample, this, nullptr));
    if (!stack_ring_) {
        return Error{std::string("cannot open the Python stack ring buffer: ") +
                     std::strerror(errno)};
    }
    return Ok{};
}

Status Recorder::put_probes(const std::vector<tracedb::ProbeRecord>& probes) {
    std::string optional_missing;  // one warning line per call, not one per symbol
    for (const auto& probe : probes) {
        if (!probe.attached && probe.error == tracedb::kSymbolNotExported) {
            // Not in this library at all: nothing can call it there (info, not a loss).
            symbols_not_exported_ += probe.kind == "uretprobe" ? 0 : 1;
            if (options_.verbose) {
                note(probe.library + " does not export " + probe.symbol);
            }
        } else if (!probe.attached) {
            ++(probe.required ? required_missing_ : optional_missing_);
            if (options_.verbose || probe.required) {
                note("cannot attach " + probe.kind + " " + probe.symbol +
                     (probe.library.empty() ? "" : " in " + probe.library) + ": " +
                     probe.error.value_or("unknown error"));
            } else if (probe.kind != "uretprobe") {
                optional_missing += (optional_missing.empty() ? "" : ", ") + probe.symbol;
            }
        }
        if (auto status = writer_.put_probe(probe); !status) {
            return status;
        }
    }
    if (!optional_missing.empty()) {
        note("warning: optional symbols not attached in " + probes.front().library + ": " +
             optional_missing + " (calls to them are not recorded; see the probe table)");
    }
    return Ok{};
}

Status Recorder::attach_library(const CudaLibrary& library) {
    if (!attached_libraries_.insert(library.path).second) {
        return Ok{};
    }
    if (options_.verbose) {
        note(std::string("attaching to the CUDA ") + cuda_library_kind_name(library.kind) + " " +
             library.path + " (found by " + library.found_by + ")");
    }
    return put_probes(programs_->attach_cuda_library(library));
}

Status Recorder::open_rings() {
    struct Spec {
        Ring* ring;
        int fd;
        ring_buffer_sample_fn callback;
        const char* name;
    };
    const Spec specs[] = {
        {&life_ring_, programs_->life_events_fd(), on_life, "lifecycle"},
        {&sched_ring_, programs_->sched_events_fd(), on_sched, "sched"},
        {&cuda_ring_, programs_->cuda_events_fd(), on_cuda, "cuda"},
    };
    for (const auto& spec : specs) {
        spec.ring->reset(ring_buffer__new(spec.fd, spec.callback, this, nullptr));
        if (!*spec.ring) {
            return Error{std::string("cannot open the ") + spec.name +
                         " ring buffer: " + std::strerror(errno)};
        }
    }
    return Ok{};
}

Status Recorder::start(const DiscoveryResult& discovered) {
    if (!options_.command.empty()) {
        auto child = HeldChild::spawn(options_.command);
        if (!child) {
            return child.error();
        }
        child_.emplace(std::move(child.value()));
    }
    LoadConfig config;
    config.offcpu_floor_ns = static_cast<std::uint64_t>(options_.offcpu_floor_ns);
    config.session_start_ns = static_cast<std::uint64_t>(session_.start_mono_ns);
    config.page_bucket_ns = static_cast<std::uint64_t>(options_.page_bucket_ns);
    config.stop_on_dlopen = options_.stop_on_dlopen;
    config.cuda_ring_bytes = options_.cuda_ring_bytes;
    config.uprobe_multi = options_.uprobe_multi;
    config.record_stacks = options_.walks_native();
    config.walk_python = options_.walks_python();
    config.python_sample_gap_ns = static_cast<std::uint64_t>(options_.python_sample_gap_ns);
    auto programs = BpfPrograms::load(config);
    if (!programs) {
        return programs.error();
    }
    programs_ = std::move(programs.value());
    if (options_.stop_on_dlopen) {
        // Before any probe is attached, so the guard holds none of their links.
        auto guard = LoaderStopGuard::start(programs_->loader_stopped_fd());
        if (!guard) {
            return guard.error();
        }
        guard_.emplace(std::move(guard.value()));
    }
    if (options_.walks_native()) {
        events_.record_stacks([fd = programs_->user_stacks_fd()](std::int32_t stack_id) {
            std::vector<std::uint64_t> addresses(CW_STACK_DEPTH);
            if (bpf_map_lookup_elem(fd, &stack_id, addresses.data()) != 0) {
                return std::vector<std::uint64_t>{};
            }
            addresses.erase(std::find(addresses.begin(), addresses.end(), 0), addresses.end());
            return addresses;
        });
    }
    if (auto status = open_rings(); !status) {
        return status;
    }
    if (options_.walks_python()) {
        if (auto status = start_python_frames(); !status) {
            return status;
        }
    }

    std::vector<int> roots =
        child_ ? std::vector<int>{child_->pid()} : with_descendants(options_.pids);
    for (int pid : roots) {
        if (auto status = programs_->trace_process(pid); !status) {
            return status;
        }
        if (auto id = registry_.add_root_process(static_cast<std::uint32_t>(pid)); !id) {
            return id.error();
        }
        // A command is still the collector's own fork, held before its exec: its interpreter
        // is looked for at the exec.
        if (auto status = child_ ? Status{Ok{}} : inspect_python(static_cast<std::uint32_t>(pid));
            !status) {
            return status;
        }
        ++processes_seen_;
    }

    auto tracepoints = programs_->attach_tracepoints();
    for (const auto& probe : tracepoints) {
        if (!probe.attached) {
            return Error{"cannot attach the tracepoint " + probe.symbol + ": " +
                         probe.error.value_or("unknown error")};
        }
    }
    if (auto status = put_probes(tracepoints); !status) {
        return status;
    }
    std::error_code error;
    auto loader = std::filesystem::canonical(kSystemLoader, error);
    if (!error) {
        if (auto status = put_probes({programs_->attach_loader(loader.string())}); !status) {
            return status;
        }
    }
    for (const auto& library : discovered.libraries) {
        if (auto status = attach_library(library); !status) {
            return status;
        }
    }
    if (auto status = writer_.commit(); !status) {
        return status;
    }
    if (child_) {
        auto released = child_->release();
        if (!released) {
            // The file holds the attempt: say in it that nothing of the command ran.
            (void)writer_.put_data_quality(tracedb::counter_record(
                tracedb::DataQualityCounter::kCommandNotStarted, 1,
                released.error().message +
                    ": the command never ran, so nothing of it is in the trace"));
        }
        return released;
    }
    return Ok{};
}

Status Recorder::handle_loader_events() {
    for (std::uint32_t tgid : loader_stops_) {
        // A libpython loaded by the program (or by dlopen) is found here.
        if (auto status = inspect_python(tgid); !status) {
            continue_loader_stop(programs_->loader_stopped_fd(), tgid);
            return status;
        }
        for (const auto& library : cuda_libraries_of_process(static_cast<int>(tgid))) {
            if (auto status = attach_library(library); !status) {
                continue_loader_stop(programs_->loader_stopped_fd(), tgid);
                return status;
            }
        }
        if (options_.stop_on_dlopen) {
            continue_loader_stop(programs_->loader_stopped_fd(), tgid);
        }
    }
    loader_stops_.clear();
    return writer_.commit();
}

Status Recorder::consume_once() {
    // Lifecycle first, so a new process or thread has its row before its other events.
    int rc = ring_buffer__poll(life_ring_.get(), rings_busy_ ? 0 : kPollTimeoutMs);
    rings_busy_ = false;
    sched_budget_ = cuda_budget_ = kRecordsPerTurn;
    if (rc >= 0) {
        ring_buffer__consume(sched_ring_.get());
        ring_buffer__consume(cuda_ring_.get());
        if (stack_ring_) {
            ring_buffer__consume(stack_ring_.get());
        }
    }
    if (callback_error_) {
        return *callback_error_;
    }
    if (rc < 0 && rc != -EINTR) {
        return Error{std::string("cannot read the ring buffers: ") + std::strerror(-rc)};
    }
    if (!loader_stops_.empty()) {
        return handle_loader_events();
    }
    return Ok{};
}

LossCounters Recorder::losses() const {
    LossCounters c;
    c.cuda = programs_->counters(ProbeFamily::kCuda);
    c.sched = programs_->counters(ProbeFamily::kSched);
    c.lifecycle = programs_->counters(ProbeFamily::kLifecycle);
    c.page_alloc = programs_->counters(ProbeFamily::kPageAlloc);
    c.threads_seen_late = registry_.threads_seen_late();
    c.optional_probes_missing = optional_missing_;
    c.required_probes_missing = required_missing_;
    c.symbols_not_exported = symbols_not_exported_;
    if (python_) {
        c.python_walked = true;
        c.python = programs_->python_counters();
        c.python_unresolved_frames = events_.unresolved_python_frames();
    }
    return c;
}

Status Recorder::tick(bool final) {
    std::int64_t now_ns = monotonic_ns() - session_.start_mono_ns;
    if (auto snapshot = sampler_.sample(now_ns)) {
        if (auto status = writer_.add_snapshot(*snapshot); !status) {
            return status;
        }
    }
    std::optional<std::uint64_t> before_bucket;
    if (!final) {
        // The current bucket and the one before may still be counting.
        auto current = static_cast<std::uint64_t>(now_ns / options_.page_bucket_ns);
        before_bucket = current > 0 ? current - 1 : 0;
    }
    if (auto drained = drain_page_buckets(programs_->page_buckets_fd(), registry_, writer_,
                                          options_.page_bucket_ns, before_bucket);
        !drained) {
        return drained.error();
    }
    if (auto status = write_sched_totals(programs_->thread_sched_fd(), registry_, writer_);
        !status) {
        return status;
    }
    LossCounters loss = losses();
    auto quality = data_quality_records(loss);
    if (python_) {
        quality.push_back(python_->unreadable_record());
    }
    for (const auto& record : quality) {
        if (auto status = writer_.put_data_quality(record); !status) {
            return status;
        }
    }
    if (auto status = writer_.commit(); !status) {
        return status;
    }
    ProgressSample sample{static_cast<double>(now_ns) / 1e9,
                          events_.cuda_calls(),
                          sched_events_,
                          life_events_,
                          total_drops(loss),
                          programs_->attached_count(),
                          registry_.live_traced_processes()};
    if (!options_.quiet && !final) {
        std::fprintf(stderr, "%s\n", progress_line(last_progress_, sample).c_str());
    }
    last_progress_ = sample;
    return Ok{};
}

bool Recorder::should_stop() {
    if (g_stop_signal.load() != 0) {
        return true;
    }
    if (options_.duration_s > 0 && monotonic_ns() - session_.start_mono_ns >=
                                       static_cast<std::int64_t>(options_.duration_s * 1e9)) {
        return true;
    }
    if (child_) {
        return child_->poll_exit().has_value();
    }
    return registry_.live_traced_processes() == 0;
}

Status Recorder::record_turn() {
    Status outcome = consume_once();
    if (outcome && monotonic_ns() >= next_tick_ns_) {
        // After a long turn, the next tick comes half a second later, not at once.
        next_tick_ns_ = std::max(next_tick_ns_ + kTickNs, monotonic_ns() + kTickNs / 2);
        outcome = tick(false);
    }
    return outcome;
}

bool Recorder::command_running() {
    return !child_->poll_exit() || !programs_->traced_processes().empty();
}

// The recording stops while the command it started still runs (--duration, SIGINT, SIGTERM):
// the command is ended as timeout(1) ends one, so it does not run on untraced and orphaned.
// Every process of its tree (as the kernel follows it, so also children that left its process
// group) gets SIGTERM; what is left after --kill-after seconds gets SIGKILL. Recording goes on
// meanwhile, so the trace shows the shutdown. Processes given with --pid are never signalled.
Status Recorder::end_command() {
    auto signal_tree = [this](int signo) {
        child_->signal(signo);  // the command first, as a user ending it would
        for (std::uint32_t tgid : programs_->traced_processes()) {
            ::kill(static_cast<pid_t>(tgid), signo);
        }
    };
    char grace[64];
    std::snprintf(grace, sizeof grace, ", then SIGKILL after %g s", options_.kill_after_s);
    note(std::string("the recording stopped before the command exited: sending it SIGTERM") +
         grace);
    Status outcome = writer_.put_data_quality(
        tracedb::counter_record(tracedb::DataQualityCounter::kCommandEndedByCollector, 1));
    auto record_while_running = [&](double seconds) {
        std::int64_t deadline = monotonic_ns() + static_cast<std::int64_t>(seconds * 1e9);
        while (outcome && command_running() && monotonic_ns() < deadline) {
            outcome = record_turn();
        }
    };
    signal_tree(SIGTERM);
    record_while_running(options_.kill_after_s);
    if (command_running()) {
        signal_tree(SIGKILL);
        record_while_running(kKillWaitS);  // SIGKILL cannot be refused: this lets the exits in
    }
    return outcome;
}

// Continues whatever is still stopped at a dlopen, once no new stop can come, and dismisses the
// guard that would otherwise do it.
void Recorder::release_loader_stops() {
    if (!guard_) {
        return;
    }
    programs_->detach_loader();
    continue_loader_stops(programs_->loader_stopped_fd());
    guard_->dismiss();
    guard_.reset();
}

Result<RecordSummary> Recorder::run(const DiscoveryResult& discovered) {
    Status outcome = start(discovered);
    next_tick_ns_ = monotonic_ns() + kTickNs;
    sampler_.sample(monotonic_ns() - session_.start_mono_ns);
    while (outcome && !should_stop()) {
        outcome = record_turn();
    }
    if (child_ && programs_ && life_ring_ && !child_->poll_exit()) {
        if (auto status = end_command(); outcome && !status) {
            outcome = status;
        }
    }
    // Drain what is left, let stopped processes go, and close the file cleanly even after an
    // error, so the DB holds everything recorded until then.
    if (programs_ && life_ring_) {
        // Bounded: a command left running after --duration keeps producing.
        for (int turn = 0; turn < 64 && !callback_error_; ++turn) {
            rings_busy_ = false;
            sched_budget_ = cuda_budget_ = kRecordsPerTurn;
            int consumed = std::max(ring_buffer__consume(life_ring_.get()), 0) +
                           std::max(ring_buffer__consume(sched_ring_.get()), 0) +
                           std::max(ring_buffer__consume(cuda_ring_.get()), 0);
            if (stack_ring_) {
                consumed += std::max(ring_buffer__consume(stack_ring_.get()), 0);
            }
            if (consumed == 0 && !rings_busy_) {
                break;
            }
        }
        if (callback_error_ && outcome) {
            outcome = *callback_error_;
        }
        if (auto status = handle_loader_events(); outcome && !status) {
            outcome = status;
        }
        release_loader_stops();
        if (auto status = tick(true); outcome && !status) {
            outcome = status;
        }
    }
    std::int64_t stop_ns = monotonic_ns() - session_.start_mono_ns;
    if (auto status = writer_.finish(stop_ns); outcome && !status) {
        outcome = status;
    }
    if (!outcome) {
        return outcome.error();
    }
    RecordSummary summary;
    summary.db_path = options_.db_path;
    summary.elapsed_s = static_cast<double>(stop_ns) / 1e9;
    summary.cuda_calls = events_.cuda_calls();
    summary.offcpu_intervals = events_.offcpu_intervals();
    summary.processes = processes_seen_;
    LossCounters loss = losses();
    summary.drops = total_drops(loss);
    summary.unmatched_calls = loss.cuda.unmatched_returns + loss.cuda.entries_lost;
    summary.probes_attached = programs_->attached_count();
    if (child_) {
        summary.command_status = child_->poll_exit();
    }
    return summary;
}

Status preflight(const RecordOptions& options) {
    if (auto problem = privilege_problem(current_privileges()); !problem.empty()) {
        return Error{problem};
    }
    if (!std::filesystem::exists("/sys/kernel/btf/vmlinux")) {
        return Error{
            "kernel BTF /sys/kernel/btf/vmlinux is missing: the collector needs a kernel "
            "built with CONFIG_DEBUG_INFO_BTF=y"};
    }
    if (!options.command.empty()) {
        // Before the DB is created: a command that cannot run leaves no trace blaming CUDA.
        if (auto status = check_runnable(options.command.front()); !status) {
            return status;
        }
    }
    for (int pid : options.pids) {
        if (!std::filesystem::exists("/proc/" + std::to_string(pid))) {
            return Error{"pid " + std::to_string(pid) + " is not running (no /proc/" +
                         std::to_string(pid) + ")"};
        }
    }
    return Ok{};
}

Result<DiscoveryResult> discover(const RecordOptions& options) {
    DiscoveryRequest request;
    request.explicit_paths = options.cuda_libs;
    request.pids = with_descendants(options.pids);
    if (const char* path = std::getenv("LD_LIBRARY_PATH")) {
        request.ld_library_path = path;  // the command inherits it
    }
    if (const char* home = std::getenv("CUDA_HOME")) {
        request.cuda_home = home;
    }
    DiscoveryResult result = discover_cuda_libraries(request);
    if (!result.problems.empty()) {
        return Error{result.problems.front()};
    }
    if (result.libraries.empty() && options.command.empty()) {
        std::string searched;
        for (const auto& place : result.searched) {
            searched += "\n  " + place;
        }
        return Error{"no libcudart or libcuda found; looked in:" + searched +
                     "\npass --cuda-lib PATH to the library the process uses"};
    }
    return result;
}

}  // namespace

void install_stop_handlers() {
    struct sigaction action {};
    action.sa_handler = on_stop_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;  // no SA_RESTART: interrupt the ring-buffer poll
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
}

Result<RecordSummary> record(const RecordOptions& options) {
    if (auto status = validate(options); !status) {
        return status.error();
    }
    if (auto status = preflight(options); !status) {
        return status.error();
    }
    auto discovered = discover(options);
    if (!discovered) {
        return discovered.error();
    }
    if (discovered->libraries.empty() && !options.quiet) {
        std::fprintf(stderr,
                     "causeway-collector: no CUDA library found up front; libraries the command "
                     "loads are attached when it maps them\n");
    }
    libbpf_set_print(options.verbose ? print_libbpf_verbose : print_libbpf_quiet);
    auto session = describe_session(options);
    auto writer = tracedb::TraceWriter::create(options.db_path, session);
    if (!writer) {
        return writer.error();
    }
    Recorder recorder(options, std::move(session), std::move(writer.value()));
    return recorder.run(*discovered);
}

std::string summary_line(const RecordSummary& s) {
    char text[512];
    std::snprintf(text, sizeof(text),
                  "recorded %.1f s: %lld CUDA calls, %lld off-CPU intervals, %lld processes, "
                  "%llu events dropped, %llu CUDA calls unmatched, %lld probes -> %s",
                  s.elapsed_s, static_cast<long long>(s.cuda_calls),
                  static_cast<long long>(s.offcpu_intervals), static_cast<long long>(s.processes),
                  static_cast<unsigned long long>(s.drops),
                  static_cast<unsigned long long>(s.unmatched_calls),
                  static_cast<long long>(s.probes_attached), s.db_path.c_str());
    std::string line = text;
    if (s.command_status) {
        line += " (command " + describe_wait_status(*s.command_status) + ")";
    }
    return line;
}

}  // namespace causeway::collector
