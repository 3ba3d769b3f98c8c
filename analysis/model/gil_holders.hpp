#pragma once
// Who held CPython's GIL while a thread waited for it. A waiter sleeps on the GIL's condition
// variable with a timeout of the switch interval (5 ms): each timeout wakes it to ask the holder to
// drop the GIL, and it sleeps again, until the holder drops it and wakes the waiter itself. So one
// wait for the GIL is a run of sleeps, the first ones ended by the timer and only the last by the
// holder: all of them are the holder's.

#include <cstdint>

#include "analysis/model/trace_model.hpp"

namespace causeway::analysis {

// Between two sleeps of one wait the waiter only re-checks the GIL and sets the drop request:
// microseconds. A longer run on the CPU, or a CUDA call between them, means it took the GIL and
// gave it up again: a new wait.
inline constexpr std::int64_t kGilRecheckNs = 1'000'000;

// Sets gil_holder_index on every GIL wait of model.offcpu_by_thread (sorted by time): the thread
// of the same process that woke the last sleep of its run; where no thread woke it, of the threads
// seen handing that process's GIL over elsewhere, the one awake (running or runnable) the longest
// during the wait. Needs model.calls_by_thread.
void assign_gil_holders(TraceModel& model);

}  // namespace causeway::analysis
