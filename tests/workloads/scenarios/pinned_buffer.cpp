#include "tests/workloads/scenarios/pinned_buffer.hpp"

#include <cuda_runtime_api.h>

#include "tests/workloads/scenarios/cuda_check.hpp"

namespace causeway::scenarios {

PinnedBuffer::PinnedBuffer(std::size_t bytes) : bytes_(bytes) {
    check_cuda(cudaMallocHost(&address_, bytes), "cudaMallocHost");
}

PinnedBuffer::~PinnedBuffer() {
    cudaFreeHost(address_);
}

}  // namespace causeway::scenarios
