#include "driver_library.hpp"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>

#include <cstdio>
#include <string>

namespace fakecudart {
namespace {

constexpr const char* kDriverLibrary = "libcuda.so.1";

// The folder holding this library's file (symlinks resolved), with a trailing '/'; empty if
// unknown.
std::string own_folder() {
    Dl_info info{};
    if (dladdr(reinterpret_cast<const void*>(&own_folder), &info) == 0 ||
        info.dli_fname == nullptr) {
        return {};
    }
    char resolved[PATH_MAX];
    if (realpath(info.dli_fname, resolved) == nullptr) {
        return {};
    }
    const std::string path(resolved);
    return path.substr(0, path.rfind('/') + 1);
}

// The fake driver built beside this runtime; failing that, whatever libcuda.so.1 the dynamic
// loader finds (LD_LIBRARY_PATH, the system), as the real runtime does. By absolute path first,
// because a dlopen interposed by a tool (a sanitizer, a profiler) no longer searches this
// library's own RUNPATH.
void* open_driver() {
    const std::string beside = own_folder() + kDriverLibrary;
    if (void* library = dlopen(beside.c_str(), RTLD_NOW | RTLD_LOCAL)) {
        return library;
    }
    return dlopen(kDriverLibrary, RTLD_NOW | RTLD_LOCAL);
}

bool load_into(DriverEntryPoints& entry_points) {
    void* library = open_driver();
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
