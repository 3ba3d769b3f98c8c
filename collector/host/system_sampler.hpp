#pragma once
// System-wide snapshots from /proc (about one a second): CPU shares since the previous sample,
// memory, load, runnable tasks and the context-switch rate.

#include <cstdint>
#include <optional>
#include <string>

#include "tracedb/records.hpp"

namespace causeway::collector {

// Cumulative counters of /proc/stat (clock ticks and counts since boot).
struct CpuCounters {
    std::uint64_t user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0,
                  steal = 0;
    std::uint64_t context_switches = 0;
    std::int64_t procs_running = 0;
    std::uint64_t total() const {
        return user + nice + system + idle + iowait + irq + softirq + steal;
    }
};

std::optional<CpuCounters> parse_proc_stat(const std::string& text);
// MemTotal and MemAvailable of /proc/meminfo (bytes).
std::optional<std::pair<std::int64_t, std::int64_t>> parse_meminfo(const std::string& text);

// One snapshot from two /proc/stat readings `elapsed_ns` apart plus memory and load now.
tracedb::SnapshotRecord make_snapshot(std::int64_t ts_ns, const CpuCounters& before,
                                      const CpuCounters& after, std::int64_t elapsed_ns,
                                      std::pair<std::int64_t, std::int64_t> memory, double load1);

class SystemSampler {
  public:
    explicit SystemSampler(std::string proc_root = "/proc");
    // A snapshot for the interval since the previous call (the first call only sets the base).
    std::optional<tracedb::SnapshotRecord> sample(std::int64_t ts_ns);

  private:
    std::string proc_root_;
    std::optional<CpuCounters> previous_;
    std::int64_t previous_ts_ns_ = 0;
};

}  // namespace causeway::collector
