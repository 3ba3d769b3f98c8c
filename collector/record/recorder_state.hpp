#pragma once
// The state of one recording, shared by the files that do its jobs: recorder.cpp (start, the
// loop, the end of the command, the finish), ring_consumer.cpp (the ring buffers),
// periodic_tick.cpp (the once-a-second work), loader_stops.cpp (the dlopen stop/continue) and
// summary.cpp (the summary). Only the collector's own record() makes one.

#include <cstdint>
#include <memory>
#include <optional>
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
#include "collector/record/ring_consumer.hpp"
#include "tracedb/writer.hpp"

namespace causeway::collector {

constexpr std::int64_t kTickNs = 1'000'000'000;  // snapshots, totals, commit, progress
constexpr const char* kSystemLoader = "/lib64/ld-linux-x86-64.so.2";
// How long the exits after a SIGKILL are waited for, to be in the trace.
constexpr double kKillWaitS = 2;

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
          loader_stops_(options_.stop_on_dlopen),
          rings_(events_, registry_, loader_stops_, python_) {}

    Result<RecordSummary> run(const DiscoveryResult& discovered);

  private:
    Status start(const DiscoveryResult& discovered);
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

    void start_python_processes();
    Status start_python_frames();
    Status inspect_python(std::uint32_t tgid);

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
    LoaderStops loader_stops_;               // its guard goes before programs_
    std::optional<PythonProcesses> python_;  // from the start: interpreters the kernel can read
    RingConsumer rings_;                     // after programs_: its rings freed before the maps
    std::int64_t root_processes_ = 0;  // traced from the start: the command, or --pid and below
    std::int64_t next_tick_ns_ = 0;
    ProgressSample last_progress_{};
};

}  // namespace causeway::collector
