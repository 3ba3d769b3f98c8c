#pragma once
// What a loaded trace model holds in memory, for caches that bound models by bytes: its call
// columns, per-thread lists and tables, counted by capacity (strings at their length). An
// estimate within the allocator's headers.

#include <cstddef>

#include "analysis/model/trace_model.hpp"

namespace causeway::analysis {

std::size_t model_bytes(const TraceModel& model);

}  // namespace causeway::analysis
