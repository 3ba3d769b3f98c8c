#pragma once
// What a launcher (cw_nccl_launch, or torchrun with the id passed the same way) tells each rank:
// RANK, WORLD_SIZE, and the communicator's unique id as hex in CAUSEWAY_NCCL_ID.

#include <optional>
#include <string>

#include "nccl.h"

namespace fakenccl {

inline constexpr const char* kIdVariable = "CAUSEWAY_NCCL_ID";

struct RankEnvironment {
    int rank = 0;
    int world_size = 1;
    ncclUniqueId id{};
};

std::string id_to_hex(const ncclUniqueId& id);
// The environment's rank, world size and id; nullopt with `error` set when one is missing or
// malformed.
std::optional<RankEnvironment> rank_environment(std::string& error);

}  // namespace fakenccl
