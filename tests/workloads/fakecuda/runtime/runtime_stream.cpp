// Runtime entry points: kernel launches, streams and events.

#include "cuda.h"
#include "cuda_runtime_api.h"
#include "runtime_call.hpp"

using fakecudart::call_driver;
using fakecudart::DriverEntryPoints;
using fakecudart::record_error;

// The host function pointer is the kernel's handle (the real runtime maps it to the CUfunction
// registered for it; here nothing is registered and the pointer itself is the handle).
cudaError_t cudaLaunchKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args,
                             size_t sharedMem, cudaStream_t stream) {
    if (func == nullptr) {
        return record_error(cudaErrorInvalidDeviceFunction);
    }
    if (gridDim.x == 0 || gridDim.y == 0 || gridDim.z == 0 || blockDim.x == 0 || blockDim.y == 0 ||
        blockDim.z == 0) {
        return record_error(cudaErrorInvalidConfiguration);
    }
    return call_driver([&](const DriverEntryPoints& d) {
        return d.cuLaunchKernel(static_cast<CUfunction>(const_cast<void*>(func)), gridDim.x,
                                gridDim.y, gridDim.z, blockDim.x, blockDim.y, blockDim.z,
                                static_cast<unsigned int>(sharedMem), stream, args, nullptr);
    });
}

cudaError_t cudaStreamCreate(cudaStream_t* pStream) {
    return call_driver(
        [&](const DriverEntryPoints& d) { return d.cuStreamCreate(pStream, CU_STREAM_DEFAULT); });
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* pStream, unsigned int flags) {
    return call_driver(
        [&](const DriverEntryPoints& d) { return d.cuStreamCreate(pStream, flags); });
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
    return call_driver([&](const DriverEntryPoints& d) { return d.cuStreamDestroy_v2(stream); });
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
    return call_driver([&](const DriverEntryPoints& d) { return d.cuStreamSynchronize(stream); });
}

cudaError_t cudaStreamQuery(cudaStream_t stream) {
    return call_driver([&](const DriverEntryPoints& d) { return d.cuStreamQuery(stream); });
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
    return call_driver(
        [&](const DriverEntryPoints& d) { return d.cuStreamWaitEvent(stream, event, flags); });
}

cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* userData) {
    return call_driver(
        [&](const DriverEntryPoints& d) { return d.cuLaunchHostFunc(stream, fn, userData); });
}

cudaError_t cudaEventCreate(cudaEvent_t* event) {
    return call_driver(
        [&](const DriverEntryPoints& d) { return d.cuEventCreate(event, CU_EVENT_DEFAULT); });
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) {
    return call_driver([&](const DriverEntryPoints& d) { return d.cuEventCreate(event, flags); });
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
    return call_driver([&](const DriverEntryPoints& d) { return d.cuEventRecord(event, stream); });
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
    return call_driver([&](const DriverEntryPoints& d) { return d.cuEventSynchronize(event); });
}

cudaError_t cudaEventQuery(cudaEvent_t event) {
    return call_driver([&](const DriverEntryPoints& d) { return d.cuEventQuery(event); });
}

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
    return call_driver(
        [&](const DriverEntryPoints& d) { return d.cuEventElapsedTime_v2(ms, start, end); });
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
    return call_driver([&](const DriverEntryPoints& d) { return d.cuEventDestroy_v2(event); });
}
