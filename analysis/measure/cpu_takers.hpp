#pragma once
// How much CPU each process outside the traced tree took from traced threads. The collector
// names every task that ran next when a traced thread left its CPU, also after the thread went
// to sleep of its own accord (idle kernel threads, the collector itself): only a switch that
// preempted a traced thread (it was still runnable) took its CPU. Only processes that did are
// competitors worth a row.

#include <cstdint>
#include <vector>

#include "analysis/model/trace_filter.hpp"
#include "analysis/model/trace_model.hpp"

namespace causeway::analysis {

// Indexed like model.processes: for a process outside the tree, how long traced threads of the
// selection were runnable but not running after it preempted them (ns; the intervals that
// start in the window); 0 for every other process.
std::vector<std::int64_t> cpu_taken_by_process(const TraceModel& model,
                                               const ResolvedFilter& filter);

}  // namespace causeway::analysis
