// The once-a-second work: a system snapshot, page buckets that can no longer grow, per-thread
// totals, the data-quality counters, a commit and the progress line.
#include <algorithm>
#include <cstdio>

#include "collector/record/recorder_state.hpp"
#include "collector/symbols/kernel_maps.hpp"

namespace causeway::collector {

LossCounters Recorder::losses() const {
    LossCounters c;
    c.cuda = programs_->counters(ProbeFamily::kCuda);
    c.sched = programs_->counters(ProbeFamily::kSched);
    c.lifecycle = programs_->counters(ProbeFamily::kLifecycle);
    c.page_alloc = programs_->counters(ProbeFamily::kPageAlloc);
    c.threads_seen_late = registry_.threads_seen_late();
    probes_.count_missing(c);
    if (options_.walks_python()) {
        c.python_walked = true;
        c.python = programs_->python_counters();
        c.python_unresolved_frames = events_.unresolved_python_frames();
    }
    return c;
}

// Each live traced process's cgroup and CPU limit (a process that exits meanwhile is skipped), and
// each process outside the tree first seen since the last tick.
Status Recorder::sample_cgroups(std::int64_t now_ns) {
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

Status Recorder::tick(bool final) {
    std::int64_t now_ns = monotonic_ns() - session_.start_mono_ns;
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
                          rings_.sched_events(),
                          rings_.life_events(),
                          total_drops(loss),
                          programs_->attached_count(),
                          registry_.live_traced_processes()};
    if (!options_.quiet && !final) {
        std::fprintf(stderr, "%s\n", progress_line(last_progress_, sample).c_str());
    }
    last_progress_ = sample;
    return Ok{};
}

Status Recorder::record_turn() {
    Status outcome = rings_.consume_once();
    if (outcome && loader_stops_.pending()) {
        outcome = handle_loader_events();
    }
    if (outcome && monotonic_ns() >= next_tick_ns_) {
        // After a long turn, the next tick comes half a second later, not at once.
        next_tick_ns_ = std::max(next_tick_ns_ + kTickNs, monotonic_ns() + kTickNs / 2);
        outcome = tick(false);
    }
    return outcome;
}

}  // namespace causeway::collector
