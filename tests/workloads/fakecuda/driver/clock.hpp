#pragma once
// Time on the emulated device and on the calling host thread. All times are CLOCK_MONOTONIC
// nanoseconds.

#include <cstdint>

namespace fakecuda {

using Nanos = std::uint64_t;

Nanos monotonic_now_ns();

// Sleeps (uses no CPU) until CLOCK_MONOTONIC reaches deadline_ns.
void sleep_until_ns(Nanos deadline_ns);

// Keeps the calling thread busy until it has used cpu_ns of CPU time: host-side work of a CUDA
// call. If the thread is preempted meanwhile, the call takes longer in wall time, as real work
// would.
void burn_thread_cpu_ns(Nanos cpu_ns);

// Device time of moving `bytes` at `gbps` GB/s (1 GB = 1e9 bytes), i.e. bytes / gbps nanoseconds.
Nanos transfer_ns(std::uint64_t bytes, double gbps);

}  // namespace fakecuda
