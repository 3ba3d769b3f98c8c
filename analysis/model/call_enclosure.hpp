#pragma once
// Runtime calls enclose driver calls: libcudart's cudaMemcpy calls cuMemcpy* on the same thread.
// Statistics report both, but time accounting must count the enclosed driver time once.

#include <cstdint>
#include <vector>

#include "analysis/model/trace_model.hpp"

namespace causeway::analysis {

// One flag per call (indexed like model.calls): set when the call is a driver call that starts and
// ends inside a runtime call of the same thread. Needs model.calls_by_thread.
FlagColumn mark_enclosed_driver_calls(const TraceModel& model);

}  // namespace causeway::analysis
