#pragma once
// A CPU quota for the calling process, as a container's CPU limit sets one: a cgroup made for it
// under the cpu controller (cgroup v1 at /sys/fs/cgroup/cpu, else v2 at /sys/fs/cgroup), with
// `cpus` CPUs' worth of time per 100 ms period. Needs root. The process moves in when the group is
// made and back to the hierarchy's root, the group removed, when it is destroyed.

#include <string>

namespace causeway::scenarios {

class CpuQuotaGroup {
  public:
    explicit CpuQuotaGroup(double cpus);
    ~CpuQuotaGroup();
    CpuQuotaGroup(const CpuQuotaGroup&) = delete;
    CpuQuotaGroup& operator=(const CpuQuotaGroup&) = delete;

    const std::string& path() const { return path_; }
    // Moves one thread of the process back to the hierarchy's root, out of the quota (cgroup v1,
    // where a single thread can move; v2 keeps a process's threads in one domain group: nothing).
    void exempt_thread(long tid) const;

  private:
    bool v1_ = false;
    std::string root_;  // the hierarchy's root: where the process goes back to
    std::string path_;  // the group made for this process
};

}  // namespace causeway::scenarios
