#pragma once
// Whether two recordings can be compared, and what a reader of the comparison must know when
// they differ in more than the change under test: another program, another machine, lost events.

#include <string>
#include <vector>

#include "analysis/compare/op_latency_change.hpp"
#include "analysis/compare/trace_comparison.hpp"
#include "analysis/model/trace_model.hpp"
#include "base/result.hpp"

namespace causeway::analysis {

// The program a recording ran: the executable's file name, or for an interpreter (python3,
// python3.11, ...) its script or module, and behind `env NAME=VALUE` the program env runs; from
// the recorded command line, else the name of the
// process that drove the GPU. Empty when neither is known.
std::string program_of(const TraceModel& model, int training_process);

// Refuses two recordings with no CUDA op called in both (there is nothing to compare: different
// jobs, or one that never reached the GPU); the error names both files and their ops.
Status check_common_ops(const TraceModel& before, const TraceModel& after, const OpChanges& ops);

// What differs besides the change: the program (compared anyway, on the ops they share; only
// when both are known), the CPU count, the host, events lost in either recording.
std::vector<Difference> comparison_differences(const ComparedRecording& before,
                                               const ComparedRecording& after);

}  // namespace causeway::analysis
