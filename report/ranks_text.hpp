#pragma once
// The NCCL ranks of a diagnosis (analysis/measure/rank_alignment.hpp) in words: per
// communicator, the rank that arrived last most often and by how much, each rank's wait for the
// others, and a collective some ranks never reached.

#include <string>
#include <vector>

#include "analysis/measure/rank_alignment.hpp"

namespace causeway::report {

// One line: "rank 2 (pid 1234) arrived last at 98% of 60 collectives, 4.1 ms late on average".
std::string latest_rank_text(const analysis::CommunicatorRanks& ranks);
// "rank 1 never issued collective #61, which ranks 0 and 2 did ..."; "" when every rank did.
std::string missing_collective_text(const analysis::CommunicatorRanks& ranks);
// The section of `causeway explain`; "" without communicators.
std::string render_ranks(const std::vector<analysis::CommunicatorRanks>& communicators);

}  // namespace causeway::report
