#include "tests/scenarios/foreign_load.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <string>

namespace causeway::testing {
namespace {

struct CpuTimes {
    double busy_s = 0;
    double total_s = 0;
};

// The first line of /proc/stat: user nice system idle iowait irq softirq steal (USER_HZ ticks).
CpuTimes machine_cpu_times() {
    std::ifstream stat("/proc/stat");
    std::string label;
    double user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
    stat >> label >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal;
    const auto ticks_per_s = static_cast<double>(::sysconf(_SC_CLK_TCK));
    const double busy = user + nice + system + irq + softirq + steal;
    return {busy / ticks_per_s, (busy + idle + iowait) / ticks_per_s};
}

double seconds(const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
}

// CPU time of this process and of its children that have been waited for.
double own_cpu_s() {
    double total = 0;
    for (int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
        rusage usage{};
        ::getrusage(who, &usage);
        total += seconds(usage.ru_utime) + seconds(usage.ru_stime);
    }
    return total;
}

}  // namespace

ForeignLoad::ForeignLoad() {
    const CpuTimes machine = machine_cpu_times();
    busy_s_ = machine.busy_s;
    total_s_ = machine.total_s;
    own_s_ = own_cpu_s();
}

double ForeignLoad::busy_share() const {
    const CpuTimes machine = machine_cpu_times();
    const double total = machine.total_s - total_s_;
    if (total <= 0) {
        return 0;
    }
    const double foreign = (machine.busy_s - busy_s_) - (own_cpu_s() - own_s_);
    return std::clamp(foreign / total, 0.0, 1.0);
}

}  // namespace causeway::testing
