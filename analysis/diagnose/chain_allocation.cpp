// ALLOCATION-CHURN: device or pinned-host memory is allocated and freed inside the loop instead
// of reused.
#include <algorithm>

#include "analysis/diagnose/chain_builders.hpp"
#include "analysis/model/saturating.hpp"

namespace causeway::analysis {
namespace {

constexpr std::int64_t kMinAllocationCalls = 20;

bool pinned_host_op(const std::string& name) {
    return name == "cudaMallocHost" || name == "cudaHostAlloc" || name == "cudaFreeHost";
}

}  // namespace

std::optional<CausalChain> allocation_churn_chain(const ChainInputs& in) {
    const CallAccounting& acc = in.accounting;
    std::int64_t lost = saturating_add(category_own_ns(acc, OpCategory::kAlloc),
                                       category_own_ns(acc, OpCategory::kFree));
    double share = in.share_of_span(lost);
    std::int64_t calls = 0;
    std::int64_t pinned_ns = 0;
    std::int64_t all_ns = 0;
    std::vector<const OpAccount*> ops;
    for (const auto& op : acc.ops) {
        const OpInfo& info = in.model.ops[static_cast<std::size_t>(op.op_index)];
        if (info.category == OpCategory::kAlloc || info.category == OpCategory::kFree) {
            calls += op.dur.count;
            add_to(all_ns, op.dur.total_ns);
            add_to(pinned_ns, pinned_host_op(info.name) ? op.dur.total_ns : 0);
            ops.push_back(&op);
        }
    }
    if (acc.span_ns == 0 || share < kChainMinShare || calls < kMinAllocationCalls) {
        return std::nullopt;
    }
    std::sort(ops.begin(), ops.end(), [](const OpAccount* a, const OpAccount* b) {
        return a->dur.total_ns > b->dur.total_ns;
    });
    CausalChain chain;
    chain.root_cause_class = VerdictClass::kAllocationChurn;
    chain.time_lost_ns = lost;
    chain.time_lost_share = share;
    chain.critical_path = in_call_cost(in, {OpCategory::kAlloc, OpCategory::kFree});
    chain.op = in.model.ops[static_cast<std::size_t>(ops.front()->op_index)].name;
    chain.facts = {{Fact::kCalls, calls}};  // symptom: allocation and free calls, share of the loop
    for (const OpAccount* op : ops) {
        const std::string& name = in.model.ops[static_cast<std::size_t>(op->op_index)].name;
        chain.evidence.push_back(make_evidence(
            EvidenceKind::kAllocOpTime, static_cast<double>(op->dur.total_ns),
            {{Fact::kOp, name}, {Fact::kCalls, op->dur.count}, {Fact::kP50Ns, op->dur.p50_ns}}));
    }
    double pinned = all_ns > 0 ? static_cast<double>(pinned_ns) / static_cast<double>(all_ns) : 0;
    if (pinned < 0.9) {
        chain.recommendations.push_back({RecommendationKind::kReuseDeviceBuffers});
    }
    if (pinned >= 0.3) {
        chain.recommendations.push_back(
            {RecommendationKind::kReusePinnedBuffers, {{Fact::kPinnedShare, pinned}}});
    }
    chain.confidence = confidence_from(share, 0.3, 0.15);
    blame_device(chain, CauseKind::kAllocator, "CUDA allocator", EffectKind::kInAllocation);
    return chain;
}

}  // namespace causeway::analysis
