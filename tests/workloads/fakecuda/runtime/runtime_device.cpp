// Runtime entry points: devices, device-wide synchronisation, versions, fakecuda extensions.

#include "cuda.h"
#include "cuda_runtime_api.h"
#include "fakecuda.h"
#include "runtime_call.hpp"

using fakecudart::call_driver;
using fakecudart::DriverEntryPoints;
using fakecudart::record_error;

namespace {

// The emulated machine has one device, so the current device is always 0 once set; kept per
// thread as the real runtime does.
thread_local int t_current_device = 0;

}  // namespace

cudaError_t cudaGetDeviceCount(int* count) {
    return call_driver([&](const DriverEntryPoints& d) { return d.cuDeviceGetCount(count); });
}

cudaError_t cudaSetDevice(int device) {
    return call_driver([&](const DriverEntryPoints& d) {
        CUdevice handle = 0;
        const CUresult result = d.cuDeviceGet(&handle, device);
        if (result == CUDA_SUCCESS) {
            t_current_device = device;
        }
        return result;
    });
}

cudaError_t cudaGetDevice(int* device) {
    return call_driver([&](const DriverEntryPoints&) {
        if (device == nullptr) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        *device = t_current_device;
        return CUDA_SUCCESS;
    });
}

cudaError_t cudaSetDeviceFlags(unsigned int flags) {
    return call_driver([&](const DriverEntryPoints& d) {
        return d.cuDevicePrimaryCtxSetFlags_v2(t_current_device, flags);
    });
}

cudaError_t cudaGetDeviceFlags(unsigned int* flags) {
    return call_driver([&](const DriverEntryPoints& d) {
        int active = 0;
        return d.cuDevicePrimaryCtxGetState(t_current_device, flags, &active);
    });
}

cudaError_t cudaDeviceSynchronize(void) {
    return call_driver([](const DriverEntryPoints& d) { return d.cuCtxSynchronize(); });
}

// Like the real runtime, reports 0 (and success) when there is no driver at all.
cudaError_t cudaDriverGetVersion(int* driverVersion) {
    if (driverVersion == nullptr) {
        return record_error(cudaErrorInvalidValue);
    }
    const DriverEntryPoints* driver = fakecudart::loaded_driver();
    *driverVersion = 0;
    if (driver == nullptr) {
        return cudaSuccess;
    }
    return record_error(fakecudart::to_runtime_error(driver->cuDriverGetVersion(driverVersion)));
}

cudaError_t cudaRuntimeGetVersion(int* runtimeVersion) {
    if (runtimeVersion == nullptr) {
        return record_error(cudaErrorInvalidValue);
    }
    *runtimeVersion = CUDART_VERSION;
    return cudaSuccess;
}

int fakecudaSetKernelDuration(const void* func, unsigned long long ns) {
    if (func == nullptr) {
        return record_error(cudaErrorInvalidDeviceFunction);
    }
    return call_driver([&](const DriverEntryPoints& d) {
        return static_cast<CUresult>(
            d.fakecuFuncSetDuration(static_cast<CUfunction>(const_cast<void*>(func)), ns));
    });
}

int fakecudaGetConfig(fakecudaConfig* config) {
    if (config == nullptr) {
        return record_error(cudaErrorInvalidValue);
    }
    const DriverEntryPoints* driver = fakecudart::loaded_driver();
    if (driver == nullptr || driver->fakecuGetConfig(config) != CUDA_SUCCESS) {
        return record_error(cudaErrorInitializationError);
    }
    return cudaSuccess;
}
