#pragma once
// Shared shape of every runtime entry point: initialise on first use, call the driver, translate
// its CUresult into the runtime's error code, remember a failure as the thread's last error.

#include "cuda.h"
#include "cuda_runtime_api.h"
#include "driver_library.hpp"

namespace fakecudart {

cudaError_t to_runtime_error(CUresult result);

// Stores a failure as the calling thread's last error (cudaGetLastError) and returns it.
cudaError_t record_error(cudaError_t error);
cudaError_t peek_last_error();
cudaError_t take_last_error();

// Runs body(const DriverEntryPoints&) -> CUresult on the initialised driver.
template <typename Body>
cudaError_t call_driver(Body&& body) {
    cudaError_t error = cudaSuccess;
    const DriverEntryPoints* driver = initialized_driver(error);
    if (driver != nullptr) {
        error = to_runtime_error(body(*driver));
    }
    return record_error(error);
}

}  // namespace fakecudart
