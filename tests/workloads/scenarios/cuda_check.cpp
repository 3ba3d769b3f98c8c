#include "tests/workloads/scenarios/cuda_check.hpp"

#include <cstdio>
#include <cstdlib>

namespace causeway::scenarios {

void check_cuda(cudaError_t status, const char* call) {
    if (status == cudaSuccess) {
        return;
    }
    std::fprintf(stderr,
                 "scenario: %s failed: %s (cudaError_t %d); is the fake CUDA runtime "
                 "(libcudart.so.13 from tests/workloads/fakecuda) the one being loaded?\n",
                 call, cudaGetErrorString(status), static_cast<int>(status));
    std::exit(1);
}

}  // namespace causeway::scenarios
