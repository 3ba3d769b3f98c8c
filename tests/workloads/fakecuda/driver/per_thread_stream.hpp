#pragma once
// The per-thread default stream (CU_STREAM_PER_THREAD, cudaStreamPerThread): an implicit blocking
// stream of its own for each host thread, created on first use and destroyed (after finishing its
// work) when the thread exits.

#include "cuda.h"
#include "device.hpp"

namespace fakecuda {

// The handle of the calling thread's default stream on `device`.
CUstream per_thread_stream(Device& device);

}  // namespace fakecuda
