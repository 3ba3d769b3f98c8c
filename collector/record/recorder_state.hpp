#pragma once
// The state of one recording, shared by the files that do its jobs: recorder.cpp (start, the
// loop, the end of the command, the finish), ring_consumer.cpp (the ring buffers),
// periodic_tick.cpp (the once-a-second work), loader_stops.cpp (the dlopen stop/continue) and
// summary.cpp (the summary). Only the collector's own record() makes one.

#include <bpf/libbpf.h>

#include <cerrno>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "collector/attach/bpf_programs.hpp"
#include "collector/attach/launcher.hpp"
#include "collector/discover/discovery.hpp"
#include "collector/discover/text_files.hpp"
#include "collector/events/data_quality.hpp"
#include "collector/events/event_writer.hpp"
#include "collector/events/thread_registry.hpp"
#include "collector/host/cgroup_limits.hpp"
#include "collector/host/system_sampler.hpp"
#include "collector/python/processes.hpp"
#include "collector/record/attached_probes.hpp"
#include "collector/record/loader_stops.hpp"
#include "collector/record/monotonic_clock.hpp"
#include "collector/record/progress.hpp"
#include "collector/record/record_options.hpp"
#include "collector/record/recorder.hpp"
#include "tracedb/writer.hpp"

namespace causeway::collector {

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

class Recorder {
  public:
    Recorder(const RecordOptions& options, tracedb::SessionRecord session,
             tracedb::TraceWriter writer)
        : options_(options),
          session_(std::move(session)),
          writer_(std::move(writer)),
          registry_(writer_, session_.start_mono_ns),
          events_(writer_, registry_, session_.start_mono_ns),
          probes_(options_, writer_),
          loader_stops_(options_.stop_on_dlopen) {}

    Result<RecordSummary> run(const DiscoveryResult& discovered);

  private:
    Status start(const DiscoveryResult& discovered);
    Status open_rings();
    Status consume_once();
    // After the loop: what the rings still hold, bounded (a command left running after
    // --duration keeps producing).
    void drain_rings();
    // Counts one record against the turn's budget for its ring; kTurnBudgetSpent when used up.
    int spend(std::int64_t& budget);
    // Attaches the new libraries of each process whose link map changed, and lets it go on.
    Status handle_loader_events();
    Status tick(bool final);
    Status sample_cgroups(std::int64_t now_ns);
    // One turn of the loop: the rings, and the once-a-second work when it is due.
    Status record_turn();
    bool should_stop();
    bool command_running();
    Status end_command();
    std::int64_t stop_on_storage_failure(const Error& why);
    LossCounters losses() const;
    RecordSummary summarize(std::int64_t stop_ns);

    static int on_cuda(void* self, void* data, std::size_t size);
    static int on_sched(void* self, void* data, std::size_t size);
    static int on_life(void* self, void* data, std::size_t size);
    static int on_stack_sample(void* self, void* data, std::size_t size);
    void start_python_processes();
    Status start_python_frames();
    Status inspect_python(std::uint32_t tgid);
    int fail(Status status);
    // A record handed to the writer: fail() when it could not be written, else spend().
    int written(Status status, std::int64_t& budget);

    const RecordOptions& options_;
    tracedb::SessionRecord session_;
    tracedb::TraceWriter writer_;
    ThreadRegistry registry_;
    EventWriter events_;
    SystemSampler sampler_;
    CgroupMounts cgroup_mounts_ = parse_cgroup_mounts(read_text_file("/proc/self/mounts"));
    std::optional<HeldChild> child_;
    std::unique_ptr<BpfPrograms> programs_;
    AttachedProbes probes_;
    LoaderStops loader_stops_;                 // its guard goes before programs_
    std::optional<PythonProcesses> python_;    // from the start: interpreters the kernel can read
    Ring life_ring_, sched_ring_, cuda_ring_;  // after programs_: freed before the maps
    Ring stack_ring_;                          // switch-out Python stacks

    std::optional<Error> callback_error_;
    std::int64_t sched_events_ = 0;
    std::int64_t life_events_ = 0;
    std::int64_t processes_seen_ = 0;
    std::int64_t next_tick_ns_ = 0;
    std::int64_t sched_budget_ = 0;
    std::int64_t cuda_budget_ = 0;
    bool rings_busy_ = false;  // the last turn used up a budget: poll again without waiting
    ProgressSample last_progress_{};
};

}  // namespace causeway::collector
