#pragma once
// A comparison's facts in words, shared by its JSON and its texts: how the throughput was
// counted, how "beyond noise" was judged, what differs between the recordings besides the change,
// and the GPU-driving threads.

#include <string>
#include <vector>

#include "analysis/compare/trace_comparison.hpp"

namespace causeway::report {

// "a step is one cycle of ... marked by cudaStreamSynchronize, which recurs every 6 calls ...",
// or why the throughput is counted in calls per second.
std::string throughput_method_text(const analysis::TraceComparison& comparison);

// The test, the correction and the floors of analysis::ComparisonOptions.
std::string significance_method_text(const analysis::ComparisonOptions& options);

// Each difference as a warning: "different CPU counts (2 before, 4 after): ...".
std::vector<std::string> difference_texts(const analysis::TraceComparison& comparison);

// "train (tid 12, pid 10)".
std::string gpu_thread_text(const analysis::GpuThread& thread);

}  // namespace causeway::report
