// Exported driver entry points: streams and kernel launches.

#include "api_support.hpp"
#include "clock.hpp"
#include "cuda.h"

using fakecuda::Device;
using fakecuda::Stream;
using fakecuda::with_device;
using fakecuda::with_stream;

using StreamRef = const std::shared_ptr<Stream>&;

CUresult cuStreamCreate(CUstream* phStream, unsigned int Flags) {
    return with_device([&](Device& device) {
        if (phStream == nullptr || (Flags & ~CU_STREAM_NON_BLOCKING) != 0) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        *phStream = device.create_stream(Flags);
        return CUDA_SUCCESS;
    });
}

CUresult cuStreamDestroy_v2(CUstream hStream) {
    return with_device([&](Device& device) {
        return device.destroy_stream(hStream) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
    });
}

CUresult cuStreamSynchronize(CUstream hStream) {
    return with_stream(hStream, [](Device& device, StreamRef stream) {
        device.host_wait().until_reached(*stream, stream->last_enqueued());
        return CUDA_SUCCESS;
    });
}

CUresult cuStreamQuery(CUstream hStream) {
    return with_stream(hStream, [](Device&, StreamRef stream) {
        return stream->idle() ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
    });
}

// Later work on hStream waits for the event's latest record; an unrecorded event is a no-op.
CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags) {
    return with_stream(hStream, [&](Device& device, StreamRef stream) {
        auto event = device.events().lookup(hEvent);
        if (!event) {
            return CUDA_ERROR_INVALID_HANDLE;
        }
        if (Flags != 0) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        if (event->record) {
            fakecuda::DeviceOp wait_op;
            wait_op.waits_for.push_back(event->record->position);
            device.enqueue(stream, std::move(wait_op));
        }
        return CUDA_SUCCESS;
    });
}

CUresult cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void* userData) {
    return with_stream(hStream, [&](Device& device, StreamRef stream) {
        if (fn == nullptr) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        fakecuda::DeviceOp host_function;
        host_function.run = [fn, userData](fakecuda::Nanos) { fn(userData); };
        host_function.host_function = true;
        device.enqueue(stream, std::move(host_function));
        return CUDA_SUCCESS;
    });
}

// Costs FAKECUDA_LAUNCH_NS of the calling thread's CPU, then queues the kernel for its
// registered duration. The kernel's code is never run.
CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                        unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                        unsigned int blockDimZ, unsigned int /*sharedMemBytes*/, CUstream hStream,
                        void** /*kernelParams*/, void** /*extra*/) {
    return with_stream(hStream, [&](Device& device, StreamRef stream) {
        if (f == nullptr) {
            return CUDA_ERROR_INVALID_HANDLE;
        }
        if (gridDimX == 0 || gridDimY == 0 || gridDimZ == 0 || blockDimX == 0 || blockDimY == 0 ||
            blockDimZ == 0) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        fakecuda::burn_thread_cpu_ns(device.config().launch_ns);
        fakecuda::DeviceOp kernel;
        kernel.device_ns = device.kernel_duration(f);
        device.enqueue(stream, std::move(kernel));
        return CUDA_SUCCESS;
    });
}
