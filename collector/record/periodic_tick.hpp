#pragma once
// The once-a-second work of a recording that reads the machine and the kernel's maps (a system
// snapshot, each process's cgroup and CPU limit, page buckets that can no longer grow, per-thread
// totals), when it is due, and the progress line.

#include <cstdint>

#include "base/result.hpp"
#include "collector/attach/bpf_programs.hpp"
#include "collector/events/thread_registry.hpp"
#include "collector/host/cgroup_limits.hpp"
#include "collector/host/system_sampler.hpp"
#include "collector/record/progress.hpp"
#include "collector/record/record_options.hpp"
#include "tracedb/writer.hpp"

namespace causeway::collector {

class PeriodicTick {
  public:
    PeriodicTick(const RecordOptions& options, tracedb::TraceWriter& writer,
                 ThreadRegistry& registry, std::int64_t session_start_ns);

    // At the start of the loop: the first tick a second later, and the sampler's first reading
    // (the snapshots' rates are over the time since the one before).
    void start();
    // Whether a tick is due; when it is, the next one is scheduled.
    bool take_due_tick();
    // The samples of one tick at `now_ns` (since the session's start). The last (`final`) takes
    // every page bucket, also those that could still grow.
    Status write_samples(std::int64_t now_ns, bool final, const BpfPrograms& programs);
    // The progress line on stderr (not with --quiet, nor at the last tick), its rates since the
    // sample before.
    void show_progress(const ProgressSample& sample, bool final);

  private:
    Status sample_cgroups(std::int64_t now_ns);

    const RecordOptions& options_;
    tracedb::TraceWriter& writer_;
    ThreadRegistry& registry_;
    const std::int64_t session_start_ns_;  // monotonic
    SystemSampler sampler_;
    CgroupMounts cgroup_mounts_;
    std::int64_t next_tick_ns_ = 0;  // monotonic
    ProgressSample last_progress_{};
};

}  // namespace causeway::collector
