#include "collector/events/nccl_call.hpp"

#include <array>

namespace causeway::collector {
namespace {

bool moves_data(std::uint16_t op) {
    switch (op) {
        case CW_OP_ncclAllReduce:
        case CW_OP_ncclAllGather:
        case CW_OP_ncclReduceScatter:
        case CW_OP_ncclBroadcast:
        case CW_OP_ncclReduce:
        case CW_OP_ncclSend:
        case CW_OP_ncclRecv:
            return true;
        default:
            return false;
    }
}

bool reduces(std::uint16_t op) {
    return op == CW_OP_ncclAllReduce || op == CW_OP_ncclReduceScatter || op == CW_OP_ncclReduce;
}

}  // namespace

std::optional<std::int64_t> nccl_datatype_bytes(std::uint8_t datatype) {
    // int8, uint8, int32, uint32, int64, uint64, float16, float32, float64, bfloat16,
    // float8e4m3, float8e5m2 (nccl.h, ncclDataType_t).
    constexpr std::array<std::int64_t, 12> kBytes = {1, 1, 4, 4, 8, 8, 2, 4, 8, 2, 1, 1};
    if (datatype >= kBytes.size()) {
        return std::nullopt;
    }
    return kBytes[datatype];
}

std::optional<std::int64_t> nccl_call_bytes(const cw_nccl_call& event) {
    auto element = nccl_datatype_bytes(event.datatype);
    // A count past 2^56 elements is no real call: its product would overflow.
    constexpr std::uint64_t kMostCount = std::uint64_t{1} << 56;
    if (!moves_data(event.call.op) || !element || event.count > kMostCount) {
        return std::nullopt;
    }
    return static_cast<std::int64_t>(event.count) * *element;
}

bool nccl_makes_comm(std::uint16_t op) {
    return op == CW_OP_ncclCommInitRank || op == CW_OP_ncclCommInitRankConfig ||
           op == CW_OP_ncclCommInitAll || op == CW_OP_ncclCommSplit;
}

tracedb::NcclCallRecord to_nccl_call_record(const cw_nccl_call& event, std::int64_t start_mono_ns,
                                            std::int64_t thread_id,
                                            std::optional<std::int64_t> comm_id) {
    const std::uint16_t op = event.call.op;
    tracedb::NcclCallRecord record;
    record.thread_id = thread_id;
    record.ts_ns = static_cast<std::int64_t>(event.call.ts_ns) - start_mono_ns;
    record.op_id = op;
    record.comm_id = comm_id;
    if (moves_data(op) || (op == CW_OP_ncclGetVersion && event.call.ret == 0)) {
        record.count = static_cast<std::int64_t>(event.count);
    }
    if (moves_data(op)) {
        record.datatype = event.datatype;
    }
    if (reduces(op)) {
        record.redop = event.redop;
    }
    if (event.peer != CW_NCCL_NONE) {
        record.peer = event.peer;
    }
    return record;
}

}  // namespace causeway::collector
