#pragma once
// CPU work measured in CPU time, not wall time: under contention it takes longer on the clock,
// as real work does. Scenarios use it for the per-sample cost of an interpreted dataset
// (PyTorch's Python-level __getitem__, fetch loop and collate bookkeeping: a few microseconds a
// sample), which a C++ loop would otherwise not have.

#include <cstdint>

namespace causeway::scenarios {

// Computes for about `cpu_ns` nanoseconds of the calling thread's CPU time (the loop's speed is
// measured once per process).
void spend_cpu(std::uint64_t cpu_ns);

// The calling thread's CPU time (ns).
std::uint64_t thread_cpu_ns();

// Computes until the thread has used `budget_ns` of CPU time since thread_cpu_ns() read
// `since_ns`: work of a fixed CPU cost, whatever part of it came before.
void spend_cpu_up_to(std::uint64_t since_ns, std::uint64_t budget_ns);

}  // namespace causeway::scenarios
