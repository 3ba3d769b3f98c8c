#pragma once
// A process's cgroup and the CPU quota that limits it, read from /proc and the cgroup
// filesystems: the hierarchy of the v1 cpu controller where it is mounted, else cgroup v2. The
// limit is the tightest quota (in CPUs) from the process's group up to the root, with that group's
// throttling counters (cpu.stat). Read once a second for the traced processes, and once for each
// process outside the tree (a competitor) as first seen.

#include <cstdint>
#include <optional>
#include <string>

#include "tracedb/records.hpp"

namespace causeway::collector {

// Where the hierarchies are mounted ("" where not).
struct CgroupMounts {
    std::string v1_cpu;  // e.g. /sys/fs/cgroup/cpu (or cpu,cpuacct)
    std::string v2;      // e.g. /sys/fs/cgroup or /sys/fs/cgroup/unified
};

// The mounts listed in `mounts_text` (the format of /proc/self/mounts).
CgroupMounts parse_cgroup_mounts(const std::string& mounts_text);

// The sample of one process whose /proc/PID/cgroup reads `cgroup_text`, the group's files read
// under `mounts`; std::nullopt when it is in no hierarchy mounted here. ts_ns and process_id are
// left for the caller.
std::optional<tracedb::CgroupSampleRecord> cgroup_sample(const std::string& cgroup_text,
                                                         const CgroupMounts& mounts);

// How many CPUs process `pid` may run on (its main thread's affinity: a cpuset's cpuset.cpus, a
// taskset); std::nullopt when it cannot be read (the process exited).
std::optional<std::int64_t> cpus_allowed(int pid);

}  // namespace causeway::collector
