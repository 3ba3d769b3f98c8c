#pragma once
// Copies and memsets between host and emulated device memory, timed as on real hardware: pinned
// host memory is DMA'd asynchronously; pageable host memory goes through a staging buffer that
// the calling thread fills or drains with a real memcpy (see fakecuda.h for when calls return
// and when bytes really move).

#include <cstddef>
#include <memory>

#include "cuda.h"
#include "device.hpp"

namespace fakecuda {

// Whether the call returns only when the copy is complete (cuMemcpy*) or as early as the memory
// kind allows (cuMemcpy*Async).
enum class Completion { kWait, kAsync };

CUresult copy_host_to_device(Device& device, CUdeviceptr dst, const void* src, std::size_t bytes,
                             const std::shared_ptr<Stream>& stream, Completion completion);
CUresult copy_device_to_host(Device& device, void* dst, CUdeviceptr src, std::size_t bytes,
                             const std::shared_ptr<Stream>& stream, Completion completion);
// Always asynchronous with respect to the host, as on real CUDA.
CUresult copy_device_to_device(Device& device, CUdeviceptr dst, CUdeviceptr src, std::size_t bytes,
                               const std::shared_ptr<Stream>& stream);
// Infers the direction from the pointers (unified addressing); host to host is a memcpy here.
CUresult copy_inferred(Device& device, CUdeviceptr dst, CUdeviceptr src, std::size_t bytes,
                       const std::shared_ptr<Stream>& stream, Completion completion);
CUresult set_device_bytes(Device& device, CUdeviceptr dst, unsigned char value, std::size_t bytes,
                          const std::shared_ptr<Stream>& stream);

}  // namespace fakecuda
