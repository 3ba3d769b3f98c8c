#pragma once
// Scenario programs stop at the first failed CUDA call: a workload that silently continues after
// an error would record a trace of a different program than the one the scenario describes.

#include <cuda_runtime_api.h>

namespace causeway::scenarios {

// Returns when `status` is cudaSuccess; otherwise prints which call failed and why, and exits 1.
void check_cuda(cudaError_t status, const char* call);

}  // namespace causeway::scenarios
