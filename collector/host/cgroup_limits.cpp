#include "collector/host/cgroup_limits.hpp"

#include <sched.h>

#include <memory>
#include <vector>

#include "collector/discover/text_files.hpp"

namespace causeway::collector {
namespace {

std::optional<std::int64_t> number(const std::string& text) {
    try {
        std::size_t used = 0;
        const long long value = std::stoll(text, &used);
        return used > 0 ? std::optional<std::int64_t>(value) : std::nullopt;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

// `key value` lines (cpu.stat): the value of `key`.
std::optional<std::int64_t> stat_value(const std::string& text, const std::string& key) {
    for (const auto& line : split(text, '\n')) {
        if (line.rfind(key + " ", 0) == 0) {
            return number(line.substr(key.size() + 1));
        }
    }
    return std::nullopt;
}

struct Quota {
    std::int64_t quota_us = 0;
    std::int64_t period_us = 0;
};

// The quota set on one group directory; std::nullopt when none (unlimited, or no such file).
std::optional<Quota> quota_of(const std::string& dir, std::int64_t version) {
    if (version == 1) {
        auto quota = number(read_text_file(dir + "/cpu.cfs_quota_us"));
        auto period = number(read_text_file(dir + "/cpu.cfs_period_us"));
        if (quota && period && *quota > 0 && *period > 0) {
            return Quota{*quota, *period};
        }
        return std::nullopt;
    }
    const auto fields =
        split(read_text_file(dir + "/cpu.max"), ' ');  // "max 100000" or "30000 100000"
    if (fields.size() == 2) {
        auto quota = number(fields[0]);
        auto period = number(fields[1]);
        if (quota && period && *quota > 0 && *period > 0) {
            return Quota{*quota, *period};
        }
    }
    return std::nullopt;
}

// The group's path in the hierarchy this trace samples: the v1 cpu controller's line, else v2's.
std::optional<std::pair<std::int64_t, std::string>> place_of(const std::string& cgroup_text,
                                                             const CgroupMounts& mounts) {
    std::optional<std::string> v2_path;
    for (const auto& line : split(cgroup_text, '\n')) {
        const auto first = line.find(':');
        const auto second = line.find(':', first + 1);
        if (first == std::string::npos || second == std::string::npos) {
            continue;
        }
        const std::string controllers = line.substr(first + 1, second - first - 1);
        const std::string path = line.substr(second + 1);
        if (controllers.empty()) {
            v2_path = path;
            continue;
        }
        for (const auto& controller : split(controllers, ',')) {
            if (controller == "cpu" && !mounts.v1_cpu.empty()) {
                return std::pair<std::int64_t, std::string>{1, path};
            }
        }
    }
    if (v2_path && !mounts.v2.empty()) {
        return std::pair<std::int64_t, std::string>{2, *v2_path};
    }
    return std::nullopt;
}

}  // namespace

CgroupMounts parse_cgroup_mounts(const std::string& mounts_text) {
    CgroupMounts mounts;
    for (const auto& line : split(mounts_text, '\n')) {
        const auto fields = split(line, ' ');  // device mountpoint type options ...
        if (fields.size() < 4) {
            continue;
        }
        if (fields[2] == "cgroup2" && mounts.v2.empty()) {
            mounts.v2 = fields[1];
        } else if (fields[2] == "cgroup" && mounts.v1_cpu.empty()) {
            for (const auto& option : split(fields[3], ',')) {
                if (option == "cpu") {
                    mounts.v1_cpu = fields[1];
                }
            }
        }
    }
    return mounts;
}

std::optional<tracedb::CgroupSampleRecord> cgroup_sample(const std::string& cgroup_text,
                                                         const CgroupMounts& mounts) {
    auto place = place_of(cgroup_text, mounts);
    if (!place) {
        return std::nullopt;
    }
    tracedb::CgroupSampleRecord sample;
    sample.version = place->first;
    sample.path = place->second;
    const std::string& root = sample.version == 1 ? mounts.v1_cpu : mounts.v2;
    // From the group up to the root: the tightest quota, as CPUs.
    std::string path = sample.path;
    std::optional<Quota> tightest;
    while (true) {
        auto quota = quota_of(root + (path == "/" ? "" : path), sample.version);
        if (quota && (!tightest ||
                      static_cast<double>(quota->quota_us) / static_cast<double>(quota->period_us) <
                          static_cast<double>(tightest->quota_us) /
                              static_cast<double>(tightest->period_us))) {
            tightest = quota;
            sample.limit_path = path;
        }
        if (path == "/" || path.empty()) {
            break;
        }
        const auto slash = path.rfind('/');
        path = slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
    }
    if (!tightest) {
        return sample;
    }
    sample.quota_us = tightest->quota_us;
    sample.period_us = tightest->period_us;
    const std::string stat =
        read_text_file(root + (*sample.limit_path == "/" ? "" : *sample.limit_path) + "/cpu.stat");
    sample.nr_periods = stat_value(stat, "nr_periods");
    sample.nr_throttled = stat_value(stat, "nr_throttled");
    if (sample.version == 1) {
        sample.throttled_ns = stat_value(stat, "throttled_time");
    } else if (auto usec = stat_value(stat, "throttled_usec")) {
        sample.throttled_ns = *usec * 1000;
    }
    return sample;
}

std::optional<std::int64_t> cpus_allowed(int pid) {
    // Sized for any CPU count the kernel supports (CONFIG_NR_CPUS is at most 8192).
    constexpr int kMaxCpus = 8192;
    const std::size_t bytes = CPU_ALLOC_SIZE(kMaxCpus);
    std::unique_ptr<cpu_set_t, void (*)(cpu_set_t*)> set(CPU_ALLOC(kMaxCpus),
                                                         [](cpu_set_t* s) { CPU_FREE(s); });
    if (!set || ::sched_getaffinity(pid, bytes, set.get()) != 0) {
        return std::nullopt;
    }
    return CPU_COUNT_S(bytes, set.get());
}

}  // namespace causeway::collector
