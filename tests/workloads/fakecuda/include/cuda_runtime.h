#ifndef FAKECUDA_CUDA_RUNTIME_H
#define FAKECUDA_CUDA_RUNTIME_H
/*
 * The fake runtime's cuda_runtime.h: the C API of cuda_runtime_api.h plus, in C++, the typed
 * convenience overloads the real header offers (pass a kernel or a typed pointer without casts).
 * They are inline and call the C entry points, so traces see the same calls.
 */

#include "cuda_runtime_api.h"

#ifdef __cplusplus

/* T* rather than the real header's const T*: GCC cannot deduce a const-qualified function type. */
template <class T>
inline cudaError_t cudaLaunchKernel(T* func, dim3 gridDim, dim3 blockDim, void** args = 0,
                                    size_t sharedMem = 0, cudaStream_t stream = 0) {
    return ::cudaLaunchKernel(reinterpret_cast<const void*>(func), gridDim, blockDim, args,
                              sharedMem, stream);
}

template <class T>
inline cudaError_t cudaMalloc(T** devPtr, size_t size) {
    return ::cudaMalloc(reinterpret_cast<void**>(devPtr), size);
}

template <class T>
inline cudaError_t cudaMallocHost(T** ptr, size_t size) {
    return ::cudaMallocHost(reinterpret_cast<void**>(ptr), size);
}

template <class T>
inline cudaError_t cudaHostAlloc(T** ptr, size_t size, unsigned int flags) {
    return ::cudaHostAlloc(reinterpret_cast<void**>(ptr), size, flags);
}

template <class T>
inline cudaError_t cudaMallocAsync(T** devPtr, size_t size, cudaStream_t stream) {
    return ::cudaMallocAsync(reinterpret_cast<void**>(devPtr), size, stream);
}

inline cudaError_t cudaEventCreate(cudaEvent_t* event, unsigned int flags) {
    return ::cudaEventCreateWithFlags(event, flags);
}

#endif /* __cplusplus */

#endif /* FAKECUDA_CUDA_RUNTIME_H */
