// Exported driver entry points: copies and memsets. Synchronous forms run on the legacy default
// stream, as on real CUDA.

#include "api_support.hpp"
#include "cuda.h"
#include "transfers.hpp"

using fakecuda::Completion;
using fakecuda::Device;
using fakecuda::Stream;
using fakecuda::with_stream;

using StreamRef = const std::shared_ptr<Stream>&;

CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount) {
    return with_stream(nullptr, [&](Device& device, StreamRef stream) {
        return copy_inferred(device, dst, src, ByteCount, stream, Completion::kWait);
    });
}

CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream) {
    return with_stream(hStream, [&](Device& device, StreamRef stream) {
        return copy_inferred(device, dst, src, ByteCount, stream, Completion::kAsync);
    });
}

CUresult cuMemcpyHtoD_v2(CUdeviceptr dstDevice, const void* srcHost, size_t ByteCount) {
    return with_stream(nullptr, [&](Device& device, StreamRef stream) {
        return copy_host_to_device(device, dstDevice, srcHost, ByteCount, stream,
                                   Completion::kWait);
    });
}

CUresult cuMemcpyDtoH_v2(void* dstHost, CUdeviceptr srcDevice, size_t ByteCount) {
    return with_stream(nullptr, [&](Device& device, StreamRef stream) {
        return copy_device_to_host(device, dstHost, srcDevice, ByteCount, stream,
                                   Completion::kWait);
    });
}

CUresult cuMemcpyDtoD_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount) {
    return with_stream(nullptr, [&](Device& device, StreamRef stream) {
        return copy_device_to_device(device, dstDevice, srcDevice, ByteCount, stream);
    });
}

CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dstDevice, const void* srcHost, size_t ByteCount,
                              CUstream hStream) {
    return with_stream(hStream, [&](Device& device, StreamRef stream) {
        return copy_host_to_device(device, dstDevice, srcHost, ByteCount, stream,
                                   Completion::kAsync);
    });
}

CUresult cuMemcpyDtoHAsync_v2(void* dstHost, CUdeviceptr srcDevice, size_t ByteCount,
                              CUstream hStream) {
    return with_stream(hStream, [&](Device& device, StreamRef stream) {
        return copy_device_to_host(device, dstHost, srcDevice, ByteCount, stream,
                                   Completion::kAsync);
    });
}

CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount,
                              CUstream hStream) {
    return with_stream(hStream, [&](Device& device, StreamRef stream) {
        return copy_device_to_device(device, dstDevice, srcDevice, ByteCount, stream);
    });
}

CUresult cuMemsetD8_v2(CUdeviceptr dstDevice, unsigned char uc, size_t N) {
    return with_stream(nullptr, [&](Device& device, StreamRef stream) {
        return set_device_bytes(device, dstDevice, uc, N, stream);
    });
}

CUresult cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream) {
    return with_stream(hStream, [&](Device& device, StreamRef stream) {
        return set_device_bytes(device, dstDevice, uc, N, stream);
    });
}
