#pragma once
// What is checked before the trace DB is created, so a recording that cannot work leaves no file
// behind: privileges, kernel BTF, a runnable command, live --pid processes, and the CUDA
// libraries found up front.

#include "base/result.hpp"
#include "collector/discover/discovery.hpp"
#include "collector/record/record_options.hpp"

namespace causeway::collector {

Status preflight(const RecordOptions& options);
// The CUDA libraries of the command's environment and of the --pid processes; an error when
// attaching to pids finds none.
Result<DiscoveryResult> discover(const RecordOptions& options);

}  // namespace causeway::collector
