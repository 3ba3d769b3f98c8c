#pragma once
// The driver's process-wide state: the FAKECUDA_* configuration read when libcuda.so.1 is loaded
// and the device that cuInit creates.

#include "config.hpp"
#include "cuda.h"
#include "device.hpp"

namespace fakecuda {

const LoadedConfig& loaded_config();

// cuInit: creates the device once. CUDA_ERROR_INVALID_VALUE when the configuration is invalid.
CUresult initialize_driver();

// The device, or null (CUDA_ERROR_NOT_INITIALIZED) before a successful cuInit and in a child
// forked after initialisation, where CUDA cannot be used, as on real CUDA.
Device* initialized_device();

}  // namespace fakecuda
