// cw_nccl_calls LIBNCCL N: loads an NCCL library with dlopen and makes every call the collector
// probes N times, with arguments the runtime test checks. Without a GPU the real library answers
// each with an error (no communicator can be made, and calls on a null one are refused before they
// touch their stream), so the calls are safe to make anywhere. The stream arguments are made-up
// handles, one per op, that the trace must give back: they prove the stack-passed arguments are
// read where NCCL's prototypes put them.
#include <dlfcn.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

using Comm = void*;
using Stream = void*;
struct UniqueId {
    char internal[128];
};
constexpr int kFloat32 = 7;  // ncclFloat32
constexpr int kMax = 2;      // ncclMax
constexpr std::size_t kCount = 1024;
constexpr int kRoot = 1;
constexpr int kRanks = 2;
constexpr int kColor = 3;

Stream stream_handle(std::uintptr_t op) {
    return reinterpret_cast<Stream>(0x5000 + op);  // never dereferenced: the comm is refused first
}

template <class Function>
Function symbol(void* library, const char* name) {
    void* address = dlsym(library, name);
    if (address == nullptr) {
        std::fprintf(stderr, "the library lacks %s\n", name);
        std::exit(1);
    }
    return reinterpret_cast<Function>(address);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: cw_nccl_calls LIBNCCL N\n");
        return 2;
    }
    void* nccl = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (nccl == nullptr) {
        std::fprintf(stderr, "dlopen %s: %s\n", argv[1], dlerror());
        return 1;
    }
    using Version = int (*)(int*);
    using AllReduce = int (*)(const void*, void*, std::size_t, int, int, Comm, Stream);
    using AllGather = int (*)(const void*, void*, std::size_t, int, Comm, Stream);
    using Broadcast = int (*)(const void*, void*, std::size_t, int, int, Comm, Stream);
    using Reduce = int (*)(const void*, void*, std::size_t, int, int, int, Comm, Stream);
    using PointToPoint = int (*)(void*, std::size_t, int, int, Comm, Stream);
    using Group = int (*)();
    using InitRank = int (*)(Comm*, int, UniqueId, int);
    using InitRankConfig = int (*)(Comm*, int, UniqueId, int, void*);
    using InitAll = int (*)(Comm*, int, const int*);
    using Split = int (*)(Comm, int, int, Comm*, void*);
    using Destroy = int (*)(Comm);
    const auto version = symbol<Version>(nccl, "ncclGetVersion");
    const auto all_reduce = symbol<AllReduce>(nccl, "ncclAllReduce");
    const auto all_gather = symbol<AllGather>(nccl, "ncclAllGather");
    const auto reduce_scatter = symbol<AllReduce>(nccl, "ncclReduceScatter");
    const auto broadcast = symbol<Broadcast>(nccl, "ncclBroadcast");
    const auto reduce = symbol<Reduce>(nccl, "ncclReduce");
    const auto send = symbol<PointToPoint>(nccl, "ncclSend");
    const auto recv = symbol<PointToPoint>(nccl, "ncclRecv");
    const auto group_start = symbol<Group>(nccl, "ncclGroupStart");
    const auto group_end = symbol<Group>(nccl, "ncclGroupEnd");
    const auto init_rank = symbol<InitRank>(nccl, "ncclCommInitRank");
    const auto init_rank_config = symbol<InitRankConfig>(nccl, "ncclCommInitRankConfig");
    const auto init_all = symbol<InitAll>(nccl, "ncclCommInitAll");
    const auto split = symbol<Split>(nccl, "ncclCommSplit");
    const auto destroy = symbol<Destroy>(nccl, "ncclCommDestroy");
    const auto abort = symbol<Destroy>(nccl, "ncclCommAbort");

    const int rounds = std::atoi(argv[2]);
    UniqueId id;
    std::memset(&id, 0, sizeof(id));
    int last_version = 0;
    for (int round = 0; round < rounds; ++round) {
        version(&last_version);
        all_reduce(nullptr, nullptr, kCount, kFloat32, kMax, nullptr, stream_handle(1));
        all_gather(nullptr, nullptr, kCount, kFloat32, nullptr, stream_handle(2));
        reduce_scatter(nullptr, nullptr, kCount, kFloat32, kMax, nullptr, stream_handle(3));
        broadcast(nullptr, nullptr, kCount, kFloat32, kRoot, nullptr, stream_handle(4));
        reduce(nullptr, nullptr, kCount, kFloat32, kMax, kRoot, nullptr, stream_handle(5));
        group_start();
        send(nullptr, kCount, kFloat32, kRoot, nullptr, stream_handle(6));
        recv(nullptr, kCount, kFloat32, kRoot, nullptr, stream_handle(7));
        group_end();
        Comm made = nullptr;
        init_rank(&made, kRanks, id, kRoot);
        init_rank_config(&made, kRanks, id, kRoot, nullptr);
        init_all(&made, 1, nullptr);
        split(nullptr, kColor, 0, &made, nullptr);
        destroy(nullptr);
        abort(nullptr);
    }
    std::printf("nccl rounds %d version %d\n", rounds, last_version);
    return 0;
}
