// Exported driver entry points: initialisation, devices, the primary context, and the fakecu*
// extensions.

#include "api_support.hpp"
#include "cuda.h"
#include "fakecuda.h"

using fakecuda::Device;
using fakecuda::with_device;

// The emulated machine has one GPU. Its primary context has no state of its own beyond the
// device's flags, so one static object stands in for the handle.
struct CUctx_st {};

namespace {

CUctx_st g_primary_context;

constexpr int kDriverVersion = 13000;

}  // namespace

CUresult cuInit(unsigned int Flags) {
    if (Flags != 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return fakecuda::initialize_driver();
}

CUresult cuDriverGetVersion(int* driverVersion) {
    if (driverVersion == nullptr) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    *driverVersion = kDriverVersion;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int* count) {
    return with_device([&](Device&) {
        if (count == nullptr) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        *count = 1;
        return CUDA_SUCCESS;
    });
}

CUresult cuDeviceGet(CUdevice* device, int ordinal) {
    return with_device([&](Device&) {
        if (device == nullptr) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        if (ordinal != 0) {
            return CUDA_ERROR_INVALID_DEVICE;
        }
        *device = 0;
        return CUDA_SUCCESS;
    });
}

CUresult cuDevicePrimaryCtxRetain(CUcontext* pctx, CUdevice dev) {
    return with_device([&](Device&) {
        if (pctx == nullptr) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        if (dev != 0) {
            return CUDA_ERROR_INVALID_DEVICE;
        }
        *pctx = &g_primary_context;
        return CUDA_SUCCESS;
    });
}

CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags) {
    return with_device([&](Device& device) {
        if (dev != 0) {
            return CUDA_ERROR_INVALID_DEVICE;
        }
        const unsigned schedule = flags & CU_CTX_SCHED_MASK;
        const bool known_schedule =
            schedule == CU_CTX_SCHED_AUTO || schedule == CU_CTX_SCHED_SPIN ||
            schedule == CU_CTX_SCHED_YIELD || schedule == CU_CTX_SCHED_BLOCKING_SYNC;
        if (!known_schedule || (flags & ~CU_CTX_FLAGS_MASK) != 0) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        device.set_flags(flags);
        return CUDA_SUCCESS;
    });
}

CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int* flags, int* active) {
    return with_device([&](Device& device) {
        if (flags == nullptr || active == nullptr) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        if (dev != 0) {
            return CUDA_ERROR_INVALID_DEVICE;
        }
        *flags = device.flags();
        *active = 1;
        return CUDA_SUCCESS;
    });
}

CUresult cuCtxSynchronize(void) {
    return with_device([](Device& device) {
        device.synchronize();
        return CUDA_SUCCESS;
    });
}

int fakecuFuncSetDuration(CUfunction func, unsigned long long ns) {
    return with_device([&](Device& device) {
        if (func == nullptr) {
            return CUDA_ERROR_INVALID_HANDLE;
        }
        device.set_kernel_duration(func, ns);
        return CUDA_SUCCESS;
    });
}

int fakecuGetConfig(fakecudaConfig* config) {
    if (config == nullptr) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    const fakecuda::LoadedConfig& loaded = fakecuda::loaded_config();
    *config = loaded.config;
    return loaded.error.empty() ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
