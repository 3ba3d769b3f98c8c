// Error codes: translation from the driver, the per-thread last error, names and descriptions.

#include "cuda.h"
#include "cuda_runtime_api.h"
#include "runtime_call.hpp"

namespace fakecudart {
namespace {

thread_local cudaError_t t_last_error = cudaSuccess;

struct ErrorText {
    cudaError_t code;
    const char* name;
    const char* description;
};

constexpr ErrorText kErrorTexts[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error"},
    {cudaErrorCudartUnloading, "cudaErrorCudartUnloading", "driver shutting down"},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration",
     "invalid configuration argument"},
    {cudaErrorInvalidHostPointer, "cudaErrorInvalidHostPointer", "invalid host pointer"},
    {cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection",
     "invalid copy direction for memcpy"},
    {cudaErrorInsufficientDriver, "cudaErrorInsufficientDriver",
     "CUDA driver version is insufficient for CUDA runtime version"},
    {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
    {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported"},
    {cudaErrorUnknown, "cudaErrorUnknown", "unknown error"},
};

const ErrorText* find_text(cudaError_t error) {
    for (const ErrorText& text : kErrorTexts) {
        if (text.code == error) {
            return &text;
        }
    }
    return nullptr;
}

}  // namespace

cudaError_t to_runtime_error(CUresult result) {
    switch (result) {
        case CUDA_SUCCESS:
            return cudaSuccess;
        case CUDA_ERROR_INVALID_VALUE:
            return cudaErrorInvalidValue;
        case CUDA_ERROR_OUT_OF_MEMORY:
            return cudaErrorMemoryAllocation;
        case CUDA_ERROR_NOT_INITIALIZED:
            return cudaErrorInitializationError;
        case CUDA_ERROR_NO_DEVICE:
            return cudaErrorNoDevice;
        case CUDA_ERROR_INVALID_DEVICE:
            return cudaErrorInvalidDevice;
        case CUDA_ERROR_INVALID_HANDLE:
            return cudaErrorInvalidResourceHandle;
        case CUDA_ERROR_NOT_READY:
            return cudaErrorNotReady;
        case CUDA_ERROR_NOT_SUPPORTED:
            return cudaErrorNotSupported;
        default:
            return cudaErrorUnknown;
    }
}

// cudaErrorNotReady reports unfinished work, not a failure: it is not a last error.
cudaError_t record_error(cudaError_t error) {
    if (error != cudaSuccess && error != cudaErrorNotReady) {
        t_last_error = error;
    }
    return error;
}

cudaError_t peek_last_error() {
    return t_last_error;
}

cudaError_t take_last_error() {
    const cudaError_t last = t_last_error;
    t_last_error = cudaSuccess;
    return last;
}

}  // namespace fakecudart

using namespace fakecudart;

cudaError_t cudaGetLastError(void) {
    return take_last_error();
}

cudaError_t cudaPeekAtLastError(void) {
    return peek_last_error();
}

const char* cudaGetErrorName(cudaError_t error) {
    const ErrorText* text = find_text(error);
    return text != nullptr ? text->name : "cudaErrorUnknown";
}

const char* cudaGetErrorString(cudaError_t error) {
    const ErrorText* text = find_text(error);
    return text != nullptr ? text->description : "unrecognized error code";
}
