#ifndef FAKECUDA_FAKECUDA_H
#define FAKECUDA_FAKECUDA_H
/*
 * fakecuda: a CUDA runtime (libcudart.so.13) and driver (libcuda.so.1) that emulate one GPU
 * without hardware, so that Causeway's collector and analysis can be tested with realistic
 * timings on machines that have no GPU. Same sonames, same exported names (runtime symbols
 * versioned `libcudart.so.13` like the real ones) and C signatures as the real libraries for the
 * subset in cuda_runtime_api.h and cuda.h.
 *
 * Using it
 * - In CMake, link the target causeway_fakecudart (include <cuda_runtime_api.h> or
 *   <cuda_runtime.h>, and <fakecuda.h> for the extensions). Both libraries are built into
 *   <build>/tests/workloads/fakecuda/, which the runtime needs to stay in (it finds the driver
 *   there).
 * - A program built against the real CUDA 13 runtime runs on the fake unchanged with
 *   LD_LIBRARY_PATH=<build>/tests/workloads/fakecuda (e.g. realcuda_calls).
 * - libcuda.so.1 appears in the process's memory maps only after its first CUDA call, as with the
 *   real runtime; libcudart.so.13 is mapped from the start.
 *
 * How the emulated device behaves
 * - Layering as on real CUDA: the runtime loads the driver with dlopen at its first call (the
 *   libcuda.so.1 in the folder of libcudart.so.13's file, else the one the loader finds) and every
 *   runtime call goes through the cu* entry points. The device emulation lives in the driver.
 * - Streams: every stream (including the legacy default stream 0) is an asynchronous FIFO queue
 *   served by its own device thread (named "fakecuda-sN"). The device thread SLEEPS for each op's
 *   device time (clock_nanosleep on an absolute CLOCK_MONOTONIC deadline): a GPU does not use host
 *   CPU. Queued ops run back to back: an op starts when the previous one on its stream ended (its
 *   deadline), so wake-up latency does not accumulate.
 * - Legacy default stream (0 or cudaStreamLegacy): its work waits for all earlier work of blocking
 *   streams, and work on blocking streams waits for earlier legacy-stream work; streams created
 *   with cudaStreamNonBlocking do neither. cudaStreamPerThread is each host thread's own blocking
 *   stream, created on first use and destroyed when the thread exits. cudaDeviceSynchronize waits
 *   for all streams.
 * - Device memory is plain host memory (256-byte aligned). By default device-side work only takes
 *   time: DMA, device-to-device copies and memsets do not move bytes, because moving them would
 *   burn host CPU on the device thread (a GPU never does) and show up in traces as a CPU
 *   competitor. With FAKECUDA_MOVE_BYTES=1 the device thread moves the bytes when the op starts
 *   (a pageable host-to-device copy then snapshots its source while staging), so data round
 *   trips; the op's modeled time still counts from its start.
 * - Copies take FAKECUDA_COPY_LATENCY_NS + bytes / bandwidth. Host memory from cudaMallocHost or
 *   cudaHostAlloc is pinned (the ranges are tracked): it is DMA'd asynchronously at
 *   FAKECUDA_PINNED_GBPS. Any other host memory is pageable: the calling thread really memcpys it
 *   through a 1 MiB per-thread staging buffer (host CPU work, preemptible) and the DMA runs at
 *   FAKECUDA_PAGEABLE_GBPS. As on real CUDA, a pageable host-to-device cudaMemcpyAsync returns once
 *   the data is staged; a pageable device-to-host cudaMemcpyAsync returns only when the copy is
 *   complete. cudaMemcpy returns when its copy is complete, except device-to-device, which is
 *   asynchronous. Host-to-host copies are a memcpy on the calling thread.
 *   Device-to-device copies and memsets run at FAKECUDA_DEVICE_GBPS. Each direction between host
 *   and device has one copy engine: host-to-device copies on different streams run one after
 *   another, while a host-to-device and a device-to-host copy overlap.
 * - Kernels: cudaLaunchKernel costs FAKECUDA_LAUNCH_NS of the calling thread's CPU time and
 * enqueues a kernel that occupies its stream for the duration registered for that function pointer
 * with fakecudaSetKernelDuration, or FAKECUDA_KERNEL_NS. Any host function pointer is a "kernel"
 *   (it is used as the CUfunction handle and never called).
 * - Host functions: cudaLaunchHostFunc runs its function on the stream's device thread when the
 *   stream reaches it; later work on the stream waits until it returns, however long it blocks
 *   (the fake NCCL, tests/workloads/fakenccl, meets the other ranks there).
 * - Synchronisation (cudaStreamSynchronize, cudaDeviceSynchronize, cudaEventSynchronize, and the
 *   waits inside synchronous copies and cudaFree) waits on the calling thread the way CUDA does by
 *   default (cudaDeviceScheduleAuto): it spins checking for completion for FAKECUDA_SYNC_SPIN_NS,
 *   then calls sched_yield in a loop, so the thread stays runnable (and shows as preempted when
 *   the CPU is contended). cudaSetDeviceFlags(cudaDeviceScheduleSpin) spins throughout,
 *   cudaDeviceScheduleYield yields from the start, cudaDeviceScheduleBlockingSync (or an event made
 *   with cudaEventBlockingSync) blocks on a condition variable and uses almost no CPU.
 * - cudaMalloc and cudaFree each cost FAKECUDA_MALLOC_NS of the calling thread's CPU time; cudaFree
 *   first waits for all device work, as the real one does (the allocator-churn signature).
 *   cudaMallocHost, cudaHostAlloc and cudaFreeHost cost FAKECUDA_HOST_ALLOC_NS. Allocations beyond
 *   FAKECUDA_DEVICE_MEMORY_MIB fail with cudaErrorMemoryAllocation. cudaMallocAsync allocates at
 *   once; cudaFreeAsync releases the memory when the stream reaches it.
 * - Errors use the real codes: cudaErrorInvalidValue for null or unknown pointers and bad flags,
 *   cudaErrorInvalidResourceHandle for unknown streams or events, cudaErrorNotReady from queries of
 *   unfinished work, cudaErrorInvalidMemcpyDirection for a bad cudaMemcpyKind,
 *   cudaErrorInvalidDeviceFunction for a null kernel, cudaErrorInvalidConfiguration for a zero
 *   grid or block dimension, cudaErrorInvalidDevice for a device other than 0. A failed call sets
 *   the calling thread's last error (cudaGetLastError). After fork() in a process that had
 *   initialised CUDA, calls in the child fail with cudaErrorInitializationError, as on real CUDA.
 *
 * Configuration: environment variables read when libcuda.so.1 is loaded. Bandwidths are in GB/s
 * (1 GB = 1e9 bytes), times in nanoseconds; every value must be a non-negative number and
 * bandwidths must be positive. An invalid value is reported on stderr (naming the variable, the
 * value and what is expected) and makes initialisation fail: every runtime call then returns
 * cudaErrorInitializationError instead of running with timings nobody asked for.
 *   FAKECUDA_PINNED_GBPS       pinned host <-> device DMA bandwidth          (default 24)
 *   FAKECUDA_PAGEABLE_GBPS     pageable host <-> device DMA bandwidth        (default 8)
 *   FAKECUDA_DEVICE_GBPS       device -> device copy and memset bandwidth    (default 1000)
 *   FAKECUDA_COPY_LATENCY_NS   fixed device time added to every copy/memset  (default 5000)
 *   FAKECUDA_KERNEL_NS         device time of a kernel with no registered duration (default 20000)
 *   FAKECUDA_LAUNCH_NS         host CPU time per kernel launch               (default 4000)
 *   FAKECUDA_MALLOC_NS         host CPU time per cudaMalloc / cudaFree       (default 10000)
 *   FAKECUDA_HOST_ALLOC_NS     host CPU time per pinned alloc / free          (default 50000)
 *   FAKECUDA_SYNC_SPIN_NS      spin time before yielding when synchronising  (default 20000)
 *   FAKECUDA_DEVICE_MEMORY_MIB device memory capacity                         (default 16384)
 *   FAKECUDA_MOVE_BYTES        1: device work moves real bytes; 0: timing only (default 0)
 */

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The effective device model (defaults overridden by FAKECUDA_* variables). */
struct fakecudaConfig {
    double pinned_gbps;
    double pageable_gbps;
    double device_gbps;
    unsigned long long copy_latency_ns;
    unsigned long long kernel_ns;
    unsigned long long launch_ns;
    unsigned long long malloc_ns;
    unsigned long long host_alloc_ns;
    unsigned long long sync_spin_ns;
    unsigned long long device_memory_bytes;
    int move_bytes; /* 1 when device work moves real bytes */
};

/* Runtime extensions (libcudart.so.13). */

/* Every later launch of `func` occupies its stream for `ns` nanoseconds of device time.
 * Returns cudaErrorInvalidDeviceFunction (98) for a null func, else cudaSuccess (0). */
int fakecudaSetKernelDuration(const void* func, unsigned long long ns);

/* Fills *config with the effective model. Returns cudaErrorInitializationError (3) when the
 * FAKECUDA_* configuration is invalid (then *config holds the defaults) or the driver cannot be
 * loaded, cudaErrorInvalidValue (1) for a null config, else cudaSuccess. */
int fakecudaGetConfig(struct fakecudaConfig* config);

struct CUfunc_st;

/* Driver extensions (libcuda.so.1), used by the runtime extensions above.
 * Return CUresult codes. */
int fakecuFuncSetDuration(struct CUfunc_st* func, unsigned long long ns);
int fakecuGetConfig(struct fakecudaConfig* config);

#ifdef __cplusplus
}
#endif

#endif /* FAKECUDA_FAKECUDA_H */
