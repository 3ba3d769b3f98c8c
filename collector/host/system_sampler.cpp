#include "collector/host/system_sampler.hpp"

#include <fstream>
#include <sstream>

#include "collector/discover/text_files.hpp"

namespace causeway::collector {

namespace {

double share_pct(std::uint64_t part, std::uint64_t total) {
    return total == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(total);
}

}  // namespace

std::optional<CpuCounters> parse_proc_stat(const std::string& text) {
    CpuCounters c;
    bool have_cpu = false;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        std::istringstream fields(line);
        std::string key;
        fields >> key;
        if (key == "cpu") {
            fields >> c.user >> c.nice >> c.system >> c.idle >> c.iowait >> c.irq >> c.softirq >>
                c.steal;
            have_cpu = !fields.fail();
        } else if (key == "ctxt") {
            fields >> c.context_switches;
        } else if (key == "procs_running") {
            fields >> c.procs_running;
        }
    }
    if (!have_cpu) {
        return std::nullopt;
    }
    return c;
}

std::optional<std::pair<std::int64_t, std::int64_t>> parse_meminfo(const std::string& text) {
    std::int64_t total_kib = -1, available_kib = -1;
    std::istringstream lines(text);
    std::string key;
    std::int64_t value = 0;
    std::string unit;
    while (lines >> key >> value) {
        std::getline(lines, unit);
        if (key == "MemTotal:") {
            total_kib = value;
        } else if (key == "MemAvailable:") {
            available_kib = value;
        }
    }
    if (total_kib < 0 || available_kib < 0) {
        return std::nullopt;
    }
    return std::make_pair(total_kib * 1024, available_kib * 1024);
}

tracedb::SnapshotRecord make_snapshot(std::int64_t ts_ns, const CpuCounters& before,
                                      const CpuCounters& after, std::int64_t elapsed_ns,
                                      std::pair<std::int64_t, std::int64_t> memory, double load1) {
    std::uint64_t total = after.total() - before.total();
    std::uint64_t idle = (after.idle - before.idle) + (after.iowait - before.iowait);
    tracedb::SnapshotRecord s;
    s.ts_ns = ts_ns;
    s.cpu_busy_pct = share_pct(total - idle, total);
    s.cpu_user_pct = share_pct((after.user - before.user) + (after.nice - before.nice), total);
    s.cpu_system_pct = share_pct((after.system - before.system) + (after.irq - before.irq) +
                                     (after.softirq - before.softirq),
                                 total);
    s.cpu_iowait_pct = share_pct(after.iowait - before.iowait, total);
    s.mem_total_bytes = memory.first;
    s.mem_available_bytes = memory.second;
    s.load1 = load1;
    s.procs_running = after.procs_running;
    s.ctxt_per_s = elapsed_ns <= 0
                       ? 0.0
                       : static_cast<double>(after.context_switches - before.context_switches) *
                             1e9 / static_cast<double>(elapsed_ns);
    return s;
}

SystemSampler::SystemSampler(std::string proc_root) : proc_root_(std::move(proc_root)) {}

std::optional<tracedb::SnapshotRecord> SystemSampler::sample(std::int64_t ts_ns) {
    auto now = parse_proc_stat(read_text_file(proc_root_ + "/stat"));
    auto memory = parse_meminfo(read_text_file(proc_root_ + "/meminfo"));
    if (!now || !memory) {
        return std::nullopt;
    }
    double load1 = 0;
    std::istringstream(read_text_file(proc_root_ + "/loadavg")) >> load1;
    std::optional<tracedb::SnapshotRecord> snapshot;
    if (previous_) {
        snapshot = make_snapshot(ts_ns, *previous_, *now, ts_ns - previous_ts_ns_, *memory, load1);
    }
    previous_ = now;
    previous_ts_ns_ = ts_ns;
    return snapshot;
}

}  // namespace causeway::collector
