#include "collector/record/progress.hpp"

#include <cstdio>

namespace causeway::collector {

std::string compact_count(double value) {
    char text[32];
    if (value >= 1e6) {
        std::snprintf(text, sizeof(text), "%.1fM", value / 1e6);
    } else if (value >= 1e4) {
        std::snprintf(text, sizeof(text), "%.0fk", value / 1e3);
    } else if (value >= 1e3) {
        std::snprintf(text, sizeof(text), "%.1fk", value / 1e3);
    } else {
        std::snprintf(text, sizeof(text), "%.0f", value);
    }
    return text;
}

std::string progress_line(const ProgressSample& previous, const ProgressSample& now) {
    double interval_s = now.elapsed_s - previous.elapsed_s;
    auto rate = [&](std::int64_t before, std::int64_t after) {
        return compact_count(interval_s > 0 ? static_cast<double>(after - before) / interval_s
                                            : 0.0);
    };
    char text[256];
    std::snprintf(text, sizeof(text),
                  "[%6.1fs] cuda %s/s  sched %s/s  life %s/s  drops %llu  probes %lld  procs %lld",
                  now.elapsed_s, rate(previous.cuda_events, now.cuda_events).c_str(),
                  rate(previous.sched_events, now.sched_events).c_str(),
                  rate(previous.life_events, now.life_events).c_str(),
                  static_cast<unsigned long long>(now.drops),
                  static_cast<long long>(now.probes_attached),
                  static_cast<long long>(now.traced_processes));
    return text;
}

}  // namespace causeway::collector
