#pragma once
// The session row: what machine, what was traced, with which options, and the time zero.

#include <cstdint>
#include <string>

#include "collector/record/record_options.hpp"
#include "tracedb/records.hpp"

namespace causeway::collector {

// Reads the host facts now (hostname, kernel, CPUs, memory, GPU models from the NVIDIA driver's
// /proc files when present) and takes the start times.
tracedb::SessionRecord describe_session(const RecordOptions& options);

}  // namespace causeway::collector
