#pragma once
// The causes of two recordings matched: which went away, which appeared, which stayed and how
// much loop time each cost before and after. A cause is matched across recordings by its key:
// the chain's class, its actor's kind and its actor's name (pids and tids change from run to
// run; "CPU-CONTENDED by the DataLoader workers named pt_data_worker" does not).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/diagnose/causal_chain.hpp"

namespace causeway::analysis {

// "CPU-CONTENDED/dataloader_workers/pt_data_worker"
std::string cause_key(const CausalChain& chain);

enum class CauseStatus { kGone, kNew, kPersists };
const char* cause_status_name(CauseStatus status);  // 'gone', 'new', 'persists'

struct CauseChange {
    std::string key;
    // Names, as the comparison's JSON and text show them (verdict_class_name, cause_kind_name).
    std::string root_cause_class;
    std::string actor_kind;
    std::string actor_name;
    // Loop time lost to the cause; absent where it was no chain: below the share that makes a
    // chain (kChainMinShare, 10% of the loop), or not seen at all.
    std::optional<std::int64_t> before_ns;
    std::optional<std::int64_t> after_ns;
    std::optional<double> before_share;  // of the GPU-driving threads' loop span
    std::optional<double> after_share;
    // What the first recording's chain predicted removing the cause would gain (its
    // critical_path); absent where it was no chain or had no prediction.
    std::optional<CriticalPathCost> predicted_before;
    CauseStatus status = CauseStatus::kPersists;
};

// Causes of both, the ones before first (in their rank), then the new ones (in theirs).
std::vector<CauseChange> cause_changes(const std::vector<CausalChain>& before,
                                       const std::vector<CausalChain>& after);

}  // namespace causeway::analysis
