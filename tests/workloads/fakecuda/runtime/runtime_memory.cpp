// Runtime entry points: allocation, copies and memsets.

#include "cuda.h"
#include "cuda_runtime_api.h"
#include "runtime_call.hpp"

using fakecudart::call_driver;
using fakecudart::DriverEntryPoints;
using fakecudart::record_error;

namespace {

CUdeviceptr as_device_address(const void* pointer) {
    return reinterpret_cast<CUdeviceptr>(pointer);
}

bool is_known_kind(cudaMemcpyKind kind) {
    return kind >= cudaMemcpyHostToHost && kind <= cudaMemcpyDefault;
}

}  // namespace

cudaError_t cudaMalloc(void** devPtr, size_t size) {
    return call_driver([&](const DriverEntryPoints& d) {
        return d.cuMemAlloc_v2(reinterpret_cast<CUdeviceptr*>(devPtr), size);
    });
}

cudaError_t cudaFree(void* devPtr) {
    return call_driver(
        [&](const DriverEntryPoints& d) { return d.cuMemFree_v2(as_device_address(devPtr)); });
}

cudaError_t cudaMallocHost(void** ptr, size_t size) {
    return call_driver([&](const DriverEntryPoints& d) { return d.cuMemAllocHost_v2(ptr, size); });
}

cudaError_t cudaHostAlloc(void** pHost, size_t size, unsigned int flags) {
    return call_driver(
        [&](const DriverEntryPoints& d) { return d.cuMemHostAlloc(pHost, size, flags); });
}

cudaError_t cudaHostGetFlags(unsigned int* pFlags, void* pHost) {
    return call_driver(
        [&](const DriverEntryPoints& d) { return d.cuMemHostGetFlags(pFlags, pHost); });
}

cudaError_t cudaFreeHost(void* ptr) {
    return call_driver([&](const DriverEntryPoints& d) { return d.cuMemFreeHost(ptr); });
}

cudaError_t cudaMallocAsync(void** devPtr, size_t size, cudaStream_t hStream) {
    return call_driver([&](const DriverEntryPoints& d) {
        return d.cuMemAllocAsync(reinterpret_cast<CUdeviceptr*>(devPtr), size, hStream);
    });
}

cudaError_t cudaFreeAsync(void* devPtr, cudaStream_t hStream) {
    return call_driver([&](const DriverEntryPoints& d) {
        return d.cuMemFreeAsync(as_device_address(devPtr), hStream);
    });
}

cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
    if (!is_known_kind(kind)) {
        return record_error(cudaErrorInvalidMemcpyDirection);
    }
    return call_driver([&](const DriverEntryPoints& d) {
        switch (kind) {
            case cudaMemcpyHostToDevice:
                return d.cuMemcpyHtoD_v2(as_device_address(dst), src, count);
            case cudaMemcpyDeviceToHost:
                return d.cuMemcpyDtoH_v2(dst, as_device_address(src), count);
            case cudaMemcpyDeviceToDevice:
                return d.cuMemcpyDtoD_v2(as_device_address(dst), as_device_address(src), count);
            default:  // host to host, or inferred from the pointers
                return d.cuMemcpy(as_device_address(dst), as_device_address(src), count);
        }
    });
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                            cudaStream_t stream) {
    if (!is_known_kind(kind)) {
        return record_error(cudaErrorInvalidMemcpyDirection);
    }
    return call_driver([&](const DriverEntryPoints& d) {
        switch (kind) {
            case cudaMemcpyHostToDevice:
                return d.cuMemcpyHtoDAsync_v2(as_device_address(dst), src, count, stream);
            case cudaMemcpyDeviceToHost:
                return d.cuMemcpyDtoHAsync_v2(dst, as_device_address(src), count, stream);
            case cudaMemcpyDeviceToDevice:
                return d.cuMemcpyDtoDAsync_v2(as_device_address(dst), as_device_address(src), count,
                                              stream);
            default:  // host to host, or inferred from the pointers
                return d.cuMemcpyAsync(as_device_address(dst), as_device_address(src), count,
                                       stream);
        }
    });
}

cudaError_t cudaMemset(void* devPtr, int value, size_t count) {
    return call_driver([&](const DriverEntryPoints& d) {
        return d.cuMemsetD8_v2(as_device_address(devPtr), static_cast<unsigned char>(value), count);
    });
}

cudaError_t cudaMemsetAsync(void* devPtr, int value, size_t count, cudaStream_t stream) {
    return call_driver([&](const DriverEntryPoints& d) {
        return d.cuMemsetD8Async(as_device_address(devPtr), static_cast<unsigned char>(value),
                                 count, stream);
    });
}
