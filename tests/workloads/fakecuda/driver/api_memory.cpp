// Exported driver entry points: device and pinned host memory.

#include "api_support.hpp"
#include "clock.hpp"
#include "cuda.h"

using fakecuda::Device;
using fakecuda::MemoryKind;
using fakecuda::Nanos;
using fakecuda::Stream;
using fakecuda::with_device;
using fakecuda::with_stream;

namespace {

constexpr unsigned kKnownHostAllocFlags =
    CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_WRITECOMBINED;

void* as_pointer(CUdeviceptr address) {
    return reinterpret_cast<void*>(address);
}

// Allocates pinned host memory after the host-side cost of pinning it.
CUresult allocate_pinned(Device& device, void** pp, size_t bytesize, unsigned flags) {
    if (pp == nullptr || (flags & ~kKnownHostAllocFlags) != 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    fakecuda::burn_thread_cpu_ns(device.config().host_alloc_ns);
    if (bytesize == 0) {
        *pp = nullptr;
        return CUDA_SUCCESS;
    }
    *pp = device.memory().allocate(bytesize, MemoryKind::kPinnedHost, flags);
    return *pp == nullptr ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_SUCCESS;
}

}  // namespace

CUresult cuMemAlloc_v2(CUdeviceptr* dptr, size_t bytesize) {
    return with_device([&](Device& device) {
        if (dptr == nullptr) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        fakecuda::burn_thread_cpu_ns(device.config().malloc_ns);
        if (bytesize == 0) {
            *dptr = 0;
            return CUDA_SUCCESS;
        }
        void* memory = device.memory().allocate(bytesize, MemoryKind::kDevice, 0);
        *dptr = reinterpret_cast<CUdeviceptr>(memory);
        return memory == nullptr ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_SUCCESS;
    });
}

// Waits for all device work first, as the real cuMemFree does: the allocator-churn signature.
CUresult cuMemFree_v2(CUdeviceptr dptr) {
    return with_device([&](Device& device) {
        if (dptr == 0) {
            return CUDA_SUCCESS;
        }
        device.synchronize();
        fakecuda::burn_thread_cpu_ns(device.config().malloc_ns);
        return device.memory().release(as_pointer(dptr), MemoryKind::kDevice)
                   ? CUDA_SUCCESS
                   : CUDA_ERROR_INVALID_VALUE;
    });
}

CUresult cuMemAllocHost_v2(void** pp, size_t bytesize) {
    return with_device([&](Device& device) { return allocate_pinned(device, pp, bytesize, 0); });
}

CUresult cuMemHostAlloc(void** pp, size_t bytesize, unsigned int Flags) {
    return with_device(
        [&](Device& device) { return allocate_pinned(device, pp, bytesize, Flags); });
}

CUresult cuMemHostGetFlags(unsigned int* pFlags, void* p) {
    return with_device([&](Device& device) {
        auto found = device.memory().find(p, 1);
        if (pFlags == nullptr || !found || found->kind != MemoryKind::kPinnedHost) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        *pFlags = found->flags;
        return CUDA_SUCCESS;
    });
}

CUresult cuMemFreeHost(void* p) {
    return with_device([&](Device& device) {
        if (p == nullptr) {
            return CUDA_SUCCESS;
        }
        device.synchronize();
        fakecuda::burn_thread_cpu_ns(device.config().host_alloc_ns);
        return device.memory().release(p, MemoryKind::kPinnedHost) ? CUDA_SUCCESS
                                                                   : CUDA_ERROR_INVALID_VALUE;
    });
}

// Stream-ordered allocation: the memory exists at once; its use is ordered by the stream.
CUresult cuMemAllocAsync(CUdeviceptr* dptr, size_t bytesize, CUstream hStream) {
    return with_stream(hStream, [&](Device& device, const std::shared_ptr<Stream>&) {
        if (dptr == nullptr || bytesize == 0) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        fakecuda::burn_thread_cpu_ns(device.config().launch_ns);
        void* memory = device.memory().allocate(bytesize, MemoryKind::kDevice, 0);
        *dptr = reinterpret_cast<CUdeviceptr>(memory);
        return memory == nullptr ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_SUCCESS;
    });
}

// The memory is released when the stream reaches the free.
CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream) {
    return with_stream(hStream, [&](Device& device, const std::shared_ptr<Stream>& stream) {
        auto found = device.memory().find(as_pointer(dptr), 1);
        if (!found || found->kind != MemoryKind::kDevice || found->base != dptr) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        fakecuda::burn_thread_cpu_ns(device.config().launch_ns);
        fakecuda::DeviceOp op;
        op.run = [&memory = device.memory(), dptr](Nanos) {
            memory.release(as_pointer(dptr), MemoryKind::kDevice);
        };
        device.enqueue(stream, std::move(op));
        return CUDA_SUCCESS;
    });
}
