#pragma once
// The kernel's NCCL-call records (struct cw_nccl_call) as trace-DB rows: which arguments each op
// has, and the bytes a collective or point-to-point call moves.

#include <cstdint>
#include <optional>

#include "bpf/causeway_abi.h"
#include "tracedb/records.hpp"

namespace causeway::collector {

// Bytes of one element of an ncclDataType_t (int8 0 ... float8e5m2 11); nullopt for others.
std::optional<std::int64_t> nccl_datatype_bytes(std::uint8_t datatype);

// What a collective or ncclSend/Recv moves: count times its datatype's size; nullopt for other
// ops or an unknown datatype.
std::optional<std::int64_t> nccl_call_bytes(const cw_nccl_call& event);

// Whether the op makes a communicator (ncclCommInit*, ncclCommSplit): its comm is the one made,
// valid only when the call succeeded.
bool nccl_makes_comm(std::uint16_t op);

// The nccl_call row of `event` (pure: the ids are resolved by the caller).
tracedb::NcclCallRecord to_nccl_call_record(const cw_nccl_call& event, std::int64_t start_mono_ns,
                                            std::int64_t thread_id,
                                            std::optional<std::int64_t> comm_id);

}  // namespace causeway::collector
