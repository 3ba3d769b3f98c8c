#pragma once
// One recording: the Recorder composes its jobs, each owning its own state (the probes, the
// dlopen stops, the rings, the once-a-second work), and hands each what it needs of the others.
// recorder.cpp has the start, the loop, the end of the command and the finish; summary.cpp what
// the recording counts. Only the collector's own record() makes one.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "collector/attach/bpf_programs.hpp"
#include "collector/attach/launcher.hpp"
#include "collector/discover/discovery.hpp"
#include "collector/events/data_quality.hpp"
#include "collector/events/event_writer.hpp"
#include "collector/events/thread_registry.hpp"
#include "collector/python/processes.hpp"
#include "collector/record/attached_probes.hpp"
#include "collector/record/loader_stops.hpp"
#include "collector/record/periodic_tick.hpp"
#include "collector/record/record_options.hpp"
#include "collector/record/recorder.hpp"
#include "collector/record/ring_consumer.hpp"
#include "tracedb/writer.hpp"

namespace causeway::collector {

class Recorder {
  public:
    Recorder(const RecordOptions& options, tracedb::SessionRecord session,
             tracedb::TraceWriter writer)
        : options_(options),
          session_(std::move(session)),
          writer_(std::move(writer)),
          registry_(writer_, session_.start_mono_ns),
          events_(writer_, registry_, session_.start_mono_ns),
          periodic_(options_, writer_, registry_, session_.start_mono_ns),
          probes_(options_, writer_),
          loader_stops_(options_.stop_on_dlopen),
          rings_(events_, registry_, loader_stops_, python_) {}

    Result<RecordSummary> run(const DiscoveryResult& discovered);

  private:
    Status start(const DiscoveryResult& discovered);
    // Attaches the new libraries of each process whose link map changed, and lets it go on.
    Status handle_loader_events();
    Status tick(bool final);
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
    PeriodicTick periodic_;
    std::optional<HeldChild> child_;
    std::unique_ptr<BpfPrograms> programs_;
    AttachedProbes probes_;
    LoaderStops loader_stops_;               // its guard goes before programs_
    std::optional<PythonProcesses> python_;  // from the start: interpreters the kernel can read
    RingConsumer rings_;                     // after programs_: its rings freed before the maps
    std::int64_t root_processes_ = 0;  // traced from the start: the command, or --pid and below
};

}  // namespace causeway::collector
