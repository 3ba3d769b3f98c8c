#include "tests/workloads/scenarios/cpu_quota_group.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace causeway::scenarios {
namespace {

constexpr long kPeriodUs = 100'000;  // the kernel's default CFS period
constexpr const char* kV1Root = "/sys/fs/cgroup/cpu";
constexpr const char* kV2Root = "/sys/fs/cgroup";

bool exists(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0;
}

void write_file(const std::string& path, const std::string& value) {
    std::ofstream out(path);
    out << value;
    out.flush();
    if (!out) {
        throw std::runtime_error("cannot write '" + value + "' to " + path +
                                 " (run as root, with the cpu controller mounted)");
    }
}

}  // namespace

CpuQuotaGroup::CpuQuotaGroup(double cpus) {
    if (!(cpus > 0)) {
        throw std::runtime_error("a CPU quota must be more than 0 CPUs");
    }
    const bool v1 = exists(std::string(kV1Root) + "/cpu.cfs_quota_us");
    v1_ = v1;
    if (!v1 && !exists(std::string(kV2Root) + "/cpu.max") &&
        !exists(std::string(kV2Root) + "/cgroup.subtree_control")) {
        throw std::runtime_error(
            "no cgroup cpu controller: neither /sys/fs/cgroup/cpu (v1) nor a v2 hierarchy at "
            "/sys/fs/cgroup");
    }
    root_ = v1 ? kV1Root : kV2Root;
    path_ = root_ + "/causeway-quota-" + std::to_string(::getpid());
    if (::mkdir(path_.c_str(), 0755) != 0 && errno != EEXIST) {
        throw std::runtime_error("cannot make the cgroup " + path_ + ": " + std::strerror(errno) +
                                 " (run as root)");
    }
    const long quota_us = std::lround(cpus * kPeriodUs);
    if (v1) {
        write_file(path_ + "/cpu.cfs_period_us", std::to_string(kPeriodUs));
        write_file(path_ + "/cpu.cfs_quota_us", std::to_string(quota_us));
    } else {
        write_file(path_ + "/cpu.max", std::to_string(quota_us) + " " + std::to_string(kPeriodUs));
    }
    write_file(path_ + "/cgroup.procs", std::to_string(::getpid()));
}

void CpuQuotaGroup::exempt_thread(long tid) const {
    if (v1_) {
        write_file(root_ + "/tasks", std::to_string(tid));
    }
}

CpuQuotaGroup::~CpuQuotaGroup() {
    std::ofstream(root_ + "/cgroup.procs") << ::getpid();
    ::rmdir(path_.c_str());
}

}  // namespace causeway::scenarios
