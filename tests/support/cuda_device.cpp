#include "tests/support/cuda_device.hpp"

#include <dlfcn.h>

namespace causeway::testing {

namespace {

// The driver API's own signatures (cuda.h is not needed to ask these two questions).
using CuInit = int (*)(unsigned int flags);
using CuDeviceGetCount = int (*)(int* count);

bool ask_driver() {
    void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (driver == nullptr) {
        return false;
    }
    auto init = reinterpret_cast<CuInit>(dlsym(driver, "cuInit"));
    auto device_count = reinterpret_cast<CuDeviceGetCount>(dlsym(driver, "cuDeviceGetCount"));
    int count = 0;
    const bool present = init != nullptr && device_count != nullptr && init(0) == 0 &&
                         device_count(&count) == 0 && count > 0;
    // The driver stays loaded: unloading an initialised libcuda is not supported.
    return present;
}

}  // namespace

bool cuda_device_present() {
    static const bool present = ask_driver();
    return present;
}

}  // namespace causeway::testing
