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

}  // namespace causeway::scenarios
