#include "collector/record/periodic_tick.hpp"

#include <algorithm>
#include <cstdio>

#include "collector/discover/text_files.hpp"
#include "collector/record/monotonic_clock.hpp"
#include "collector/symbols/kernel_maps.hpp"

namespace causeway::collector {
namespace {

constexpr std::int64_t kTickNs = 1'000'000'000;

}  // namespace

PeriodicTick::PeriodicTick(const RecordOptions& options, tracedb::TraceWriter& writer,
                           ThreadRegistry& registry, std::int64_t session_start_ns)
    : options_(options),
      writer_(writer),
      registry_(registry),
      session_start_ns_(session_start_ns),
      cgroup_mounts_(parse_cgroup_mounts(read_text_file("/proc/self/mounts"))) {}

void PeriodicTick::start() {
    next_tick_ns_ = monotonic_ns() + kTickNs;
    sampler_.sample(monotonic_ns() - session_start_ns_);
}

bool PeriodicTick::take_due_tick() {
    if (monotonic_ns() < next_tick_ns_) {
        return false;
    }
    // After a long turn, the next tick comes half a second later, not at once.
    next_tick_ns_ = std::max(next_tick_ns_ + kTickNs, monotonic_ns() + kTickNs / 2);
    return true;
}

// Each live traced process's cgroup and CPU limit (a process that exits meanwhile is skipped), and
// each process outside the tree first seen since the last tick.
Status PeriodicTick::sample_cgroups(std::int64_t now_ns) {
    auto add = [&](std::int64_t process_id, const std::string& cgroup_text,
                   std::optional<std::int64_t> allowed) -> Status {
        auto sample = cgroup_sample(cgroup_text, cgroup_mounts_);
        if (!sample) {
            return Ok{};
        }
        sample->ts_ns = now_ns;
        sample->process_id = process_id;
        sample->cpus_allowed = allowed;
        return writer_.add_cgroup_sample(*sample);
    };
    for (const auto& [tgid, id] : registry_.live_traced()) {
        if (auto status = add(id, read_text_file("/proc/" + std::to_string(tgid) + "/cgroup"),
                              cpus_allowed(static_cast<int>(tgid)));
            !status) {
            return status;
        }
    }
    // Processes outside the tree once, as they were first seen: which container took the CPU.
    for (const auto& outside : registry_.take_outside_cgroups()) {
        if (auto status = add(outside.process_id, outside.cgroup_text, std::nullopt); !status) {
            return status;
        }
    }
    return Ok{};
}

Status PeriodicTick::write_samples(std::int64_t now_ns, bool final, const BpfPrograms& programs) {
    if (auto snapshot = sampler_.sample(now_ns)) {
        if (auto status = writer_.add_snapshot(*snapshot); !status) {
            return status;
        }
    }
    if (auto status = sample_cgroups(now_ns); !status) {
        return status;
    }
    std::optional<std::uint64_t> before_bucket;
    if (!final) {
        // The current bucket and the one before may still be counting.
        auto current = static_cast<std::uint64_t>(now_ns / options_.page_bucket_ns);
        before_bucket = current > 0 ? current - 1 : 0;
    }
    if (auto drained = drain_page_buckets(programs.page_buckets_fd(), registry_, writer_,
                                          options_.page_bucket_ns, before_bucket);
        !drained) {
        return drained.error();
    }
    return write_sched_totals(programs.thread_sched_fd(), registry_, writer_);
}

void PeriodicTick::show_progress(const ProgressSample& sample, bool final) {
    if (!options_.quiet && !final) {
        std::fprintf(stderr, "%s\n", progress_line(last_progress_, sample).c_str());
    }
    last_progress_ = sample;
}

}  // namespace causeway::collector
