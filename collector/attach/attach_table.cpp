#include "collector/attach/attach_table.hpp"

#include "bpf/causeway_abi.h"

namespace causeway::collector {

namespace {

constexpr auto kRuntime = CudaLibraryKind::kRuntime;
constexpr auto kDriver = CudaLibraryKind::kDriver;
constexpr auto kNccl = CudaLibraryKind::kNccl;

// The ops of the collector issue are required; the extra runtime ops are recorded when present.
constexpr CudaSymbol kSymbols[] = {
    {"cudaMalloc", CW_OP_cudaMalloc, kRuntime, true},
    {"cudaFree", CW_OP_cudaFree, kRuntime, true},
    {"cudaMallocHost", CW_OP_cudaMallocHost, kRuntime, true},
    {"cudaHostAlloc", CW_OP_cudaHostAlloc, kRuntime, true},
    {"cudaFreeHost", CW_OP_cudaFreeHost, kRuntime, true},
    {"cudaMemcpy", CW_OP_cudaMemcpy, kRuntime, true},
    {"cudaMemcpyAsync", CW_OP_cudaMemcpyAsync, kRuntime, true},
    {"cudaLaunchKernel", CW_OP_cudaLaunchKernel, kRuntime, true},
    {"cudaStreamSynchronize", CW_OP_cudaStreamSynchronize, kRuntime, true},
    {"cudaDeviceSynchronize", CW_OP_cudaDeviceSynchronize, kRuntime, true},
    {"cudaEventSynchronize", CW_OP_cudaEventSynchronize, kRuntime, true},
    {"cudaStreamCreate", CW_OP_cudaStreamCreate, kRuntime, false},
    {"cudaEventRecord", CW_OP_cudaEventRecord, kRuntime, false},
    {"cudaMallocAsync", CW_OP_cudaMallocAsync, kRuntime, false},
    {"cudaFreeAsync", CW_OP_cudaFreeAsync, kRuntime, false},
    {"cuLaunchKernel", CW_OP_cuLaunchKernel, kDriver, true},
    {"cuMemcpyHtoD_v2", CW_OP_cuMemcpyHtoD_v2, kDriver, true},
    {"cuMemcpyDtoH_v2", CW_OP_cuMemcpyDtoH_v2, kDriver, true},
    {"cuMemcpyHtoDAsync_v2", CW_OP_cuMemcpyHtoDAsync_v2, kDriver, true},
    {"cuMemcpyDtoHAsync_v2", CW_OP_cuMemcpyDtoHAsync_v2, kDriver, true},
    {"cuMemAlloc_v2", CW_OP_cuMemAlloc_v2, kDriver, true},
    {"cuMemFree_v2", CW_OP_cuMemFree_v2, kDriver, true},
    {"cuCtxSynchronize", CW_OP_cuCtxSynchronize, kDriver, true},
    {"cuStreamSynchronize", CW_OP_cuStreamSynchronize, kDriver, true},
    // NCCL: the public names (weak aliases of the pnccl* functions at the same addresses, so
    // each is attached once). Every NCCL 2.x has the collectives, groups and the first
    // communicator calls; CommInitRankConfig came in 2.14, CommSplit in 2.18.
    {"ncclAllReduce", CW_OP_ncclAllReduce, kNccl, true},
    {"ncclAllGather", CW_OP_ncclAllGather, kNccl, true},
    {"ncclReduceScatter", CW_OP_ncclReduceScatter, kNccl, true},
    {"ncclBroadcast", CW_OP_ncclBroadcast, kNccl, true},
    {"ncclReduce", CW_OP_ncclReduce, kNccl, true},
    {"ncclSend", CW_OP_ncclSend, kNccl, false},
    {"ncclRecv", CW_OP_ncclRecv, kNccl, false},
    {"ncclGroupStart", CW_OP_ncclGroupStart, kNccl, true},
    {"ncclGroupEnd", CW_OP_ncclGroupEnd, kNccl, true},
    {"ncclCommInitRank", CW_OP_ncclCommInitRank, kNccl, true},
    {"ncclCommInitRankConfig", CW_OP_ncclCommInitRankConfig, kNccl, false},
    {"ncclCommInitAll", CW_OP_ncclCommInitAll, kNccl, true},
    {"ncclCommSplit", CW_OP_ncclCommSplit, kNccl, false},
    {"ncclCommDestroy", CW_OP_ncclCommDestroy, kNccl, true},
    {"ncclCommAbort", CW_OP_ncclCommAbort, kNccl, true},
    {"ncclGetVersion", CW_OP_ncclGetVersion, kNccl, true},
};

}  // namespace

std::span<const CudaSymbol> cuda_symbols() {
    return kSymbols;
}

}  // namespace causeway::collector
