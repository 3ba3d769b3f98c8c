// The fake NCCL: libnccl.so.2 with NCCL's soname and the calls the collector probes. Ranks are
// processes of one machine. A communicator is a shared-memory rendezvous (rendezvous.hpp) named
// by its unique id; each collective and point-to-point call is queued on its CUDA stream (the
// fake CUDA runtime's, through cudaLaunchHostFunc) as a real one is, so the calling thread
// returns at once and waits for the other ranks in its next synchronisation. On its stream the
// call waits until every rank has reached it, then takes its modelled transfer time:
//   FAKENCCL_GBPS        bus bandwidth (GB/s, default 20)
//   FAKENCCL_LATENCY_NS  fixed cost of each call (ns, default 20000)
// What it leaves out: ncclCommSplit and ncclCommInitRankConfig (not exported: a program asking for
// them learns so at dlsym), more than one device per process (ncclCommInitAll takes one), and
// the data itself (buffers are never read or written).
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>

#include "nccl.h"
#include "rendezvous.hpp"

struct ncclComm {
    fakenccl::Rendezvous rendezvous;
    std::uint64_t collectives = 0;                // numbered in call order, from 1
    std::uint64_t sends[fakenccl::kMostRanks]{};  // per peer
    std::uint64_t receives[fakenccl::kMostRanks]{};

    ncclComm(const std::string& name, int nranks, int rank) : rendezvous(name, nranks, rank) {}
};

namespace {

constexpr int kVersion = 22809;  // the NCCL release whose API this is: 2.28.9

double env_number(const char* name, double fallback) {
    const char* text = std::getenv(name);
    char* end = nullptr;
    const double value = text != nullptr ? std::strtod(text, &end) : 0;
    return text != nullptr && end != text && *end == '\0' && value >= 0 ? value : fallback;
}

// The modelled time of a call that puts `bus_bytes` on each rank's link.
std::int64_t transfer_ns(double bus_bytes) {
    static const double gbps = env_number("FAKENCCL_GBPS", 20);
    static const double latency_ns = env_number("FAKENCCL_LATENCY_NS", 20'000);
    return static_cast<std::int64_t>(latency_ns + (gbps > 0 ? bus_bytes / gbps : 0));
}

std::size_t element_bytes(ncclDataType_t type) {
    constexpr std::size_t kBytes[] = {1, 1, 4, 4, 8, 8, 2, 4, 8, 2, 1, 1};
    return static_cast<std::size_t>(type) < sizeof(kBytes) / sizeof(kBytes[0]) ? kBytes[type] : 0;
}

void sleep_ns(std::int64_t ns) {
    std::this_thread::sleep_for(std::chrono::nanoseconds(ns));
}

// One call's work on its stream: the meeting of the ranks, then the transfer.
struct StreamWork {
    ncclComm* comm;
    enum class Kind { kCollective, kSend, kReceive } kind;
    int peer;
    std::uint64_t number;
    std::int64_t transfer_ns;
};

void run_on_stream(void* data) {
    std::unique_ptr<StreamWork> work(static_cast<StreamWork*>(data));
    fakenccl::Rendezvous& r = work->comm->rendezvous;
    switch (work->kind) {
        case StreamWork::Kind::kCollective:
            r.collective(work->number);
            break;
        case StreamWork::Kind::kSend:
            r.send(work->peer, work->number);
            break;
        case StreamWork::Kind::kReceive:
            r.receive(work->peer, work->number);
            break;
    }
    sleep_ns(work->transfer_ns);
}

ncclResult_t queue(cudaStream_t stream, StreamWork work) {
    auto* owned = new StreamWork(work);
    if (cudaLaunchHostFunc(stream, run_on_stream, owned) != cudaSuccess) {
        delete owned;
        return ncclUnhandledCudaError;
    }
    return ncclSuccess;
}

// A collective moving `bytes` per rank, `bus_share` of them over each rank's link (a ring
// all-reduce sends 2(n-1)/n of its buffer, an all-gather (n-1)/n of its output).
ncclResult_t collective(ncclComm_t comm, std::size_t count, ncclDataType_t type, double bus_share,
                        cudaStream_t stream) {
    if (comm == nullptr || element_bytes(type) == 0) {
        return ncclInvalidArgument;
    }
    const double bytes = static_cast<double>(count * element_bytes(type));
    return queue(stream, {comm, StreamWork::Kind::kCollective, -1, ++comm->collectives,
                          transfer_ns(bytes * bus_share)});
}

double ring_share(ncclComm_t comm, double per_step) {
    const int n = comm != nullptr ? comm->rendezvous.nranks() : 1;
    return per_step * (n - 1) / n;
}

ncclResult_t point_to_point(ncclComm_t comm, std::size_t count, ncclDataType_t type, int peer,
                            bool sending, cudaStream_t stream) {
    if (comm == nullptr || element_bytes(type) == 0 || peer < 0 ||
        peer >= comm->rendezvous.nranks() || peer == comm->rendezvous.rank()) {
        return ncclInvalidArgument;
    }
    std::uint64_t& number = sending ? comm->sends[peer] : comm->receives[peer];
    return queue(stream,
                 {comm, sending ? StreamWork::Kind::kSend : StreamWork::Kind::kReceive, peer,
                  ++number, transfer_ns(static_cast<double>(count * element_bytes(type)))});
}

std::atomic<int> unique_ids{0};

}  // namespace

extern "C" {

ncclResult_t ncclGetVersion(int* version) {
    if (version == nullptr) {
        return ncclInvalidArgument;
    }
    *version = kVersion;
    return ncclSuccess;
}

ncclResult_t ncclGetUniqueId(ncclUniqueId* id) {
    if (id == nullptr) {
        return ncclInvalidArgument;
    }
    std::memset(id, 0, sizeof(*id));
    std::snprintf(id->internal, sizeof(id->internal), "/causeway-fakenccl-%d-%d", getpid(),
                  unique_ids.fetch_add(1));
    return ncclSuccess;
}

const char* ncclGetErrorString(ncclResult_t result) {
    switch (result) {
        case ncclSuccess:
            return "no error";
        case ncclInvalidArgument:
            return "invalid argument";
        case ncclInvalidUsage:
            return "invalid usage";
        case ncclSystemError:
            return "unhandled system error";
        case ncclUnhandledCudaError:
            return "unhandled cuda error";
        default:
            return "internal error";
    }
}

ncclResult_t ncclCommInitRank(ncclComm_t* comm, int nranks, ncclUniqueId id, int rank) {
    const std::string name(id.internal, strnlen(id.internal, sizeof(id.internal)));
    if (comm == nullptr || nranks < 1 || nranks > fakenccl::kMostRanks || rank < 0 ||
        rank >= nranks || name.size() < 2 || name[0] != '/') {
        return ncclInvalidArgument;
    }
    auto made = std::make_unique<ncclComm>(name, nranks, rank);
    if (!made->rendezvous.ok()) {
        return ncclSystemError;
    }
    *comm = made.release();
    return ncclSuccess;
}

ncclResult_t ncclCommInitAll(ncclComm_t* comms, int ndev, const int* /*devlist*/) {
    if (comms == nullptr || ndev != 1) {
        return ndev > 1 ? ncclInvalidUsage : ncclInvalidArgument;
    }
    comms[0] = new ncclComm("", 1, 0);
    return ncclSuccess;
}

ncclResult_t ncclCommDestroy(ncclComm_t comm) {
    delete comm;
    return ncclSuccess;
}

ncclResult_t ncclCommAbort(ncclComm_t comm) {
    delete comm;
    return ncclSuccess;
}

ncclResult_t ncclCommCount(const ncclComm_t comm, int* count) {
    if (comm == nullptr || count == nullptr) {
        return ncclInvalidArgument;
    }
    *count = comm->rendezvous.nranks();
    return ncclSuccess;
}

ncclResult_t ncclCommUserRank(const ncclComm_t comm, int* rank) {
    if (comm == nullptr || rank == nullptr) {
        return ncclInvalidArgument;
    }
    *rank = comm->rendezvous.rank();
    return ncclSuccess;
}

ncclResult_t ncclAllReduce(const void*, void*, size_t count, ncclDataType_t datatype, ncclRedOp_t,
                           ncclComm_t comm, cudaStream_t stream) {
    return collective(comm, count, datatype, ring_share(comm, 2), stream);
}

ncclResult_t ncclAllGather(const void*, void*, size_t sendcount, ncclDataType_t datatype,
                           ncclComm_t comm, cudaStream_t stream) {
    const int n = comm != nullptr ? comm->rendezvous.nranks() : 1;
    return collective(comm, sendcount * static_cast<std::size_t>(n), datatype, ring_share(comm, 1),
                      stream);
}

ncclResult_t ncclReduceScatter(const void*, void*, size_t recvcount, ncclDataType_t datatype,
                               ncclRedOp_t, ncclComm_t comm, cudaStream_t stream) {
    const int n = comm != nullptr ? comm->rendezvous.nranks() : 1;
    return collective(comm, recvcount * static_cast<std::size_t>(n), datatype, ring_share(comm, 1),
                      stream);
}

ncclResult_t ncclBroadcast(const void*, void*, size_t count, ncclDataType_t datatype, int root,
                           ncclComm_t comm, cudaStream_t stream) {
    if (comm != nullptr && (root < 0 || root >= comm->rendezvous.nranks())) {
        return ncclInvalidArgument;
    }
    return collective(comm, count, datatype, 1, stream);
}

ncclResult_t ncclReduce(const void*, void*, size_t count, ncclDataType_t datatype, ncclRedOp_t,
                        int root, ncclComm_t comm, cudaStream_t stream) {
    if (comm != nullptr && (root < 0 || root >= comm->rendezvous.nranks())) {
        return ncclInvalidArgument;
    }
    return collective(comm, count, datatype, 1, stream);
}

ncclResult_t ncclSend(const void*, size_t count, ncclDataType_t datatype, int peer, ncclComm_t comm,
                      cudaStream_t stream) {
    return point_to_point(comm, count, datatype, peer, true, stream);
}

ncclResult_t ncclRecv(void*, size_t count, ncclDataType_t datatype, int peer, ncclComm_t comm,
                      cudaStream_t stream) {
    return point_to_point(comm, count, datatype, peer, false, stream);
}

// Calls inside a group are queued as they are made; a group only has to be closed as opened.
thread_local int group_depth = 0;

ncclResult_t ncclGroupStart(void) {
    ++group_depth;
    return ncclSuccess;
}

ncclResult_t ncclGroupEnd(void) {
    if (group_depth == 0) {
        return ncclInvalidUsage;
    }
    --group_depth;
    return ncclSuccess;
}

}  // extern "C"
