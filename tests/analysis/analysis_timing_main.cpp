// analysis_timing TRACE.db: times each stage of the analysis on one trace (load, stats,
// diagnosis), the numbers quoted in the analysis design notes.
#include <time.h>

#include <chrono>
#include <cstdio>

#include "analysis/diagnose/diagnosis.hpp"
#include "analysis/measure/trace_stats.hpp"
#include "tracedb/reader.hpp"

using namespace causeway;

namespace {

// CPU time of the whole process (all threads), in ms: on a shared, loaded machine wall time
// says more about the neighbours than about the analysis.
double cpu_ms() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: analysis_timing TRACE.db\n");
        return 2;
    }
    auto start = std::chrono::steady_clock::now();
    double cpu_start = cpu_ms();
    auto reader = tracedb::TraceReader::open(argv[1]);
    if (!reader) {
        std::fprintf(stderr, "%s\n", reader.error().message.c_str());
        return 1;
    }
    auto model = analysis::load_trace(*reader);
    if (!model) {
        std::fprintf(stderr, "%s\n", model.error().message.c_str());
        return 1;
    }
    double load_ms = ms_since(start);
    double load_cpu = cpu_ms() - cpu_start;
    start = std::chrono::steady_clock::now();
    cpu_start = cpu_ms();
    auto stats = analysis::compute_stats(*model, {});
    double stats_ms = ms_since(start);
    double stats_cpu = cpu_ms() - cpu_start;
    start = std::chrono::steady_clock::now();
    cpu_start = cpu_ms();
    auto diagnosis = analysis::diagnose(*model, {});
    double diagnose_ms = ms_since(start);
    double diagnose_cpu = cpu_ms() - cpu_start;
    std::printf(
        "calls %zu  wall/cpu ms: load %.0f/%.0f  stats %.0f/%.0f  diagnose %.0f/%.0f  "
        "verdict %s\n",
        model->calls.size(), load_ms, load_cpu, stats_ms, stats_cpu, diagnose_ms, diagnose_cpu,
        verdict_class_name(diagnosis.verdict.verdict_class));
    return stats.calls > 0 ? 0 : 1;
}
