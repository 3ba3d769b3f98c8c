#pragma once
// The runtime's view of the driver: libcuda.so.1, loaded with dlopen at the first runtime call
// (as the real runtime does) and entered only through the entry points resolved here, so
// driver-level probes fire nested inside runtime calls.

#include "cuda.h"
#include "cuda_runtime_api.h"
#include "fakecuda.h"

namespace fakecudart {

// Every driver entry point the runtime uses, listed once.
#define FAKECUDART_DRIVER_ENTRY_POINTS(X) \
    X(cuInit)                             \
    X(cuDriverGetVersion)                 \
    X(cuDeviceGetCount)                   \
    X(cuDeviceGet)                        \
    X(cuDevicePrimaryCtxRetain)           \
    X(cuDevicePrimaryCtxSetFlags_v2)      \
    X(cuDevicePrimaryCtxGetState)         \
    X(cuCtxSynchronize)                   \
    X(cuMemAlloc_v2)                      \
    X(cuMemFree_v2)                       \
    X(cuMemAllocHost_v2)                  \
    X(cuMemHostAlloc)                     \
    X(cuMemHostGetFlags)                  \
    X(cuMemFreeHost)                      \
    X(cuMemAllocAsync)                    \
    X(cuMemFreeAsync)                     \
    X(cuMemcpy)                           \
    X(cuMemcpyAsync)                      \
    X(cuMemcpyHtoD_v2)                    \
    X(cuMemcpyDtoH_v2)                    \
    X(cuMemcpyDtoD_v2)                    \
    X(cuMemcpyHtoDAsync_v2)               \
    X(cuMemcpyDtoHAsync_v2)               \
    X(cuMemcpyDtoDAsync_v2)               \
    X(cuMemsetD8_v2)                      \
    X(cuMemsetD8Async)                    \
    X(cuLaunchKernel)                     \
    X(cuStreamCreate)                     \
    X(cuStreamDestroy_v2)                 \
    X(cuStreamSynchronize)                \
    X(cuStreamQuery)                      \
    X(cuStreamWaitEvent)                  \
    X(cuLaunchHostFunc)                   \
    X(cuEventCreate)                      \
    X(cuEventRecord)                      \
    X(cuEventSynchronize)                 \
    X(cuEventQuery)                       \
    X(cuEventElapsedTime_v2)              \
    X(cuEventDestroy_v2)                  \
    X(fakecuFuncSetDuration)              \
    X(fakecuGetConfig)

struct DriverEntryPoints {
#define FAKECUDART_DECLARE_ENTRY_POINT(name) decltype(&::name) name = nullptr;
    FAKECUDART_DRIVER_ENTRY_POINTS(FAKECUDART_DECLARE_ENTRY_POINT)
#undef FAKECUDART_DECLARE_ENTRY_POINT
};

// The driver's entry points, or null when libcuda.so.1 cannot be loaded or lacks one of them
// (said once on stderr). Loaded once per process.
const DriverEntryPoints* loaded_driver();

// loaded_driver() after cuInit and primary-context set-up, done once per process. On failure
// returns null and sets `error`: cudaErrorInsufficientDriver when the driver cannot be loaded
// (what the real runtime returns without a driver), cudaErrorInitializationError when cuInit fails.
const DriverEntryPoints* initialized_driver(cudaError_t& error);

}  // namespace fakecudart
