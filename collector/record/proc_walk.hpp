#pragma once
// The processes below the --pid roots, read from /proc: what is traced and searched for CUDA
// libraries when the collector attaches to running processes.

#include <vector>

namespace causeway::collector {

// Children (transitively) of the given pids, from /proc/*/stat.
std::vector<int> with_descendants(const std::vector<int>& roots);

}  // namespace causeway::collector
