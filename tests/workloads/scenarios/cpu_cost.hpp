#pragma once
// CPU work measured in CPU time, not wall time: under contention it takes longer on the clock,
// as real work does. Scenarios use it for the per-sample cost of an interpreted dataset
// (PyTorch's Python-level __getitem__, fetch loop and collate bookkeeping: a few microseconds a
// sample), which a C++ loop would otherwise not have.

#include <cstdint>

namespace causeway::scenarios {

// Computes until the calling thread has used `cpu_ns` more nanoseconds of CPU time.
void spend_cpu(std::uint64_t cpu_ns);

}  // namespace causeway::scenarios
