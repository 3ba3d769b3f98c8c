#include "driver_library.hpp"

#include <dlfcn.h>

#include <cstdio>
#include <mutex>

namespace fakecudart {
namespace {

// Found next to libcudart.so.13 through its RUNPATH ($ORIGIN), or through LD_LIBRARY_PATH.
constexpr const char* kDriverLibrary = "libcuda.so.1";

bool load_into(DriverEntryPoints& entry_points) {
    void* library = dlopen(kDriverLibrary, RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
        std::fprintf(stderr,
                     "fakecuda: cannot load the fake driver %s: %s; it is built next to "
                     "libcudart.so.13 (tests/workloads/fakecuda) and must stay in the same "
                     "folder\n",
                     kDriverLibrary, dlerror());
        return false;
    }
    bool complete = true;
#define FAKECUDART_RESOLVE_ENTRY_POINT(name)                                        \
    entry_points.name = reinterpret_cast<decltype(&::name)>(dlsym(library, #name)); \
    if (entry_points.name == nullptr) {                                             \
        std::fprintf(stderr,                                                        \
                     "fakecuda: %s has no entry point " #name                       \
                     "; it is not the fake driver built with this runtime\n",       \
                     kDriverLibrary);                                               \
        complete = false;                                                           \
    }
    FAKECUDART_DRIVER_ENTRY_POINTS(FAKECUDART_RESOLVE_ENTRY_POINT)
#undef FAKECUDART_RESOLVE_ENTRY_POINT
    return complete;
}

// Device 0's primary context becomes current, as the real runtime sets up on first use.
CUresult initialize(const DriverEntryPoints& driver) {
    CUresult result = driver.cuInit(0);
    CUdevice device = 0;
    if (result == CUDA_SUCCESS) {
        result = driver.cuDeviceGet(&device, 0);
    }
    CUcontext context = nullptr;
    if (result == CUDA_SUCCESS) {
        result = driver.cuDevicePrimaryCtxRetain(&context, device);
    }
    return result;
}

}  // namespace

const DriverEntryPoints* loaded_driver() {
    static DriverEntryPoints entry_points;
    static const bool loaded = load_into(entry_points);
    return loaded ? &entry_points : nullptr;
}

const DriverEntryPoints* initialized_driver(cudaError_t& error) {
    const DriverEntryPoints* driver = loaded_driver();
    if (driver == nullptr) {
        error = cudaErrorInsufficientDriver;
        return nullptr;
    }
    // Once per process. In a child forked after initialisation the driver itself refuses every
    // call with CUDA_ERROR_NOT_INITIALIZED, which becomes cudaErrorInitializationError.
    static const CUresult initialized = initialize(*driver);
    if (initialized != CUDA_SUCCESS) {
        error = cudaErrorInitializationError;
        return nullptr;
    }
    return driver;
}

}  // namespace fakecudart
