// A process's cgroup and the CPU quota that limits it, read from hierarchies laid out in a
// temporary folder as the kernel lays them out.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "collector/host/cgroup_limits.hpp"
#include "tests/support/temp_dir.hpp"

using namespace causeway::collector;
using causeway::testing::TempDir;

namespace {

void put(const std::string& path, const std::string& text) {
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    std::ofstream(path) << text;
}

}  // namespace

TEST_CASE("the v1 cpu and the v2 mounts are found in /proc/self/mounts", "[collector][cgroup]") {
    const auto mounts = parse_cgroup_mounts(
        "proc /proc proc rw,nosuid 0 0\n"
        "cgroup2 /sys/fs/cgroup/unified cgroup2 rw,nosuid,nodev,noexec 0 0\n"
        "cgroup /sys/fs/cgroup/cpuset cgroup rw,cpuset 0 0\n"
        "cgroup /sys/fs/cgroup/cpu,cpuacct cgroup rw,nosuid,cpu,cpuacct 0 0\n");
    CHECK(mounts.v1_cpu == "/sys/fs/cgroup/cpu,cpuacct");
    CHECK(mounts.v2 == "/sys/fs/cgroup/unified");
    CHECK(parse_cgroup_mounts("cgroup /sys/fs/cgroup/cpuacct cgroup rw,cpuacct 0 0\n")
              .v1_cpu.empty());
}

TEST_CASE("v1: the tightest quota up the hierarchy, with its group's throttling",
          "[collector][cgroup]") {
    TempDir dir;
    const std::string root = dir.file("cpu");
    // The pod allows 0.5 CPUs, its container 2: the pod's limit is the one that binds.
    put(root + "/kubepods/pod7c1e/cpu.cfs_quota_us", "50000\n");
    put(root + "/kubepods/pod7c1e/cpu.cfs_period_us", "100000\n");
    put(root + "/kubepods/pod7c1e/cpu.stat",
        "nr_periods 188\nnr_throttled 168\nthrottled_time 12345678901\n");
    put(root + "/kubepods/pod7c1e/3f2a/cpu.cfs_quota_us", "200000\n");
    put(root + "/kubepods/pod7c1e/3f2a/cpu.cfs_period_us", "100000\n");
    put(root + "/kubepods/cpu.cfs_quota_us", "-1\n");
    put(root + "/kubepods/cpu.cfs_period_us", "100000\n");
    put(root + "/cpu.cfs_quota_us", "-1\n");
    put(root + "/cpu.cfs_period_us", "100000\n");
    const auto sample = cgroup_sample(
        "12:pids:/kubepods/pod7c1e/3f2a\n4:cpu,cpuacct:/kubepods/pod7c1e/3f2a\n0::/\n",
        CgroupMounts{.v1_cpu = root, .v2 = ""});
    REQUIRE(sample);
    CHECK(sample->version == 1);
    CHECK(sample->path == "/kubepods/pod7c1e/3f2a");
    CHECK(sample->limit_path == "/kubepods/pod7c1e");
    CHECK(sample->quota_us == 50000);
    CHECK(sample->period_us == 100000);
    CHECK(sample->nr_periods == 188);
    CHECK(sample->nr_throttled == 168);
    CHECK(sample->throttled_ns == 12345678901);
}

TEST_CASE("v2: cpu.max, and no limit where every group says max", "[collector][cgroup]") {
    TempDir dir;
    const std::string root = dir.file("unified");
    put(root + "/job/cpu.max", "30000 100000\n");
    put(root + "/job/cpu.stat",
        "usage_usec 900\nnr_periods 10\nnr_throttled 7\nthrottled_usec 2500\n");
    put(root + "/free/cpu.max", "max 100000\n");
    const CgroupMounts mounts{.v1_cpu = "", .v2 = root};
    const auto limited = cgroup_sample("0::/job\n", mounts);
    REQUIRE(limited);
    CHECK(limited->version == 2);
    CHECK(limited->limit_path == "/job");
    CHECK(limited->quota_us == 30000);
    CHECK(limited->nr_throttled == 7);
    CHECK(limited->throttled_ns == 2'500'000);
    const auto free = cgroup_sample("0::/free\n", mounts);
    REQUIRE(free);
    CHECK(free->path == "/free");
    CHECK_FALSE(free->limit_path);
    CHECK_FALSE(free->quota_us);
    // A process in no hierarchy mounted here has no sample.
    CHECK_FALSE(cgroup_sample("0::/job\n", CgroupMounts{}));
}
