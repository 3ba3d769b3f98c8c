#include "analysis/compare/cause_change.hpp"

#include <algorithm>

namespace causeway::analysis {

std::string cause_key(const CausalChain& chain) {
    return std::string(verdict_class_name(chain.root_cause_class)) + "/" +
           cause_kind_name(chain.actor.kind) + "/" + chain.actor.name;
}

const char* cause_status_name(CauseStatus status) {
    switch (status) {
        case CauseStatus::kGone:
            return "gone";
        case CauseStatus::kNew:
            return "new";
        case CauseStatus::kPersists:
            break;
    }
    return "persists";
}

std::vector<CauseChange> cause_changes(const std::vector<CausalChain>& before,
                                       const std::vector<CausalChain>& after) {
    std::vector<CauseChange> changes;
    const auto find = [&changes](const std::string& key) {
        return std::find_if(changes.begin(), changes.end(),
                            [&key](const CauseChange& c) { return c.key == key; });
    };
    for (const auto& chain : before) {
        if (find(cause_key(chain)) != changes.end()) {
            continue;  // one cause, one row (a key seen twice keeps its larger, first chain)
        }
        changes.push_back({.key = cause_key(chain),
                           .root_cause_class = verdict_class_name(chain.root_cause_class),
                           .actor_kind = cause_kind_name(chain.actor.kind),
                           .actor_name = chain.actor.name,
                           .before_ns = chain.time_lost_ns,
                           .after_ns = std::nullopt,
                           .before_share = chain.time_lost_share,
                           .after_share = std::nullopt,
                           .predicted_before = chain.critical_path,
                           .status = CauseStatus::kGone});
    }
    for (const auto& chain : after) {
        auto known = find(cause_key(chain));
        if (known == changes.end()) {
            changes.push_back({.key = cause_key(chain),
                               .root_cause_class = verdict_class_name(chain.root_cause_class),
                               .actor_kind = cause_kind_name(chain.actor.kind),
                               .actor_name = chain.actor.name,
                               .before_ns = std::nullopt,
                               .after_ns = chain.time_lost_ns,
                               .before_share = std::nullopt,
                               .after_share = chain.time_lost_share,
                               .predicted_before = std::nullopt,
                               .status = CauseStatus::kNew});
        } else if (!known->after_ns) {
            known->after_ns = chain.time_lost_ns;
            known->after_share = chain.time_lost_share;
            known->status = CauseStatus::kPersists;
        }
    }
    return changes;
}

}  // namespace causeway::analysis
