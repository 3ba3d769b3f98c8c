#pragma once
// Per CUDA op, the latency distribution of two recordings side by side and a rank test of the
// shift between them. Ops are matched by name: op ids are per file, names are the API's.

#include <string>
#include <vector>

#include "analysis/compare/rank_test.hpp"
#include "analysis/measure/distribution.hpp"
#include "analysis/model/trace_filter.hpp"
#include "analysis/model/trace_model.hpp"

namespace causeway::analysis {

// A change judged against noise: the rank test over the calls, its Holm-adjusted p-value among
// every test of one comparison, and the verdict (adjusted p below the level AND an effect at
// least the comparison's floor; see trace_comparison.hpp).
struct ShiftTest {
    RankTest rank;
    double adjusted_p_value = 1;
    bool significant = false;   // adjusted p below the level, whatever the effect's size
    bool beyond_noise = false;  // significant AND at least the effect floor
};

struct OpLatencyChange {
    std::string op;
    std::string api;       // 'runtime' or 'driver'
    std::string category;  // 'copy', 'sync', ...
    Distribution before;   // every selected call of the op (as get_trace_stats counts them)
    Distribution after;
    ShiftTest shift;  // rank test filled here; adjusted p and verdict by the comparison
};

struct OpChanges {
    std::vector<OpLatencyChange> common;   // ops called in both, by total time before
    std::vector<std::string> only_before;  // ops called before and not after
    std::vector<std::string> only_after;
};

OpChanges op_latency_changes(const TraceModel& before, const TraceFilter& before_filter,
                             const TraceModel& after, const TraceFilter& after_filter);

}  // namespace causeway::analysis
