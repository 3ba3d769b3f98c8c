#pragma once
// Shared preamble of the exported cu* entry points: every call needs an initialised device, and
// most need a valid stream.

#include <memory>

#include "cuda.h"
#include "device.hpp"
#include "driver_state.hpp"
#include "per_thread_stream.hpp"

namespace fakecuda {

// Runs body(Device&), or returns CUDA_ERROR_NOT_INITIALIZED before a successful cuInit.
template <typename Body>
CUresult with_device(Body&& body) {
    Device* device = initialized_device();
    return device == nullptr ? CUDA_ERROR_NOT_INITIALIZED : body(*device);
}

// Runs body(Device&, const std::shared_ptr<Stream>&), or returns CUDA_ERROR_INVALID_HANDLE for an
// unknown stream handle. CU_STREAM_PER_THREAD names the calling thread's default stream.
template <typename Body>
CUresult with_stream(CUstream handle, Body&& body) {
    return with_device([&](Device& device) {
        const std::shared_ptr<Stream> stream = device.resolve_stream(
            handle == CU_STREAM_PER_THREAD ? per_thread_stream(device) : handle);
        return stream ? body(device, stream) : CUDA_ERROR_INVALID_HANDLE;
    });
}

}  // namespace fakecuda
