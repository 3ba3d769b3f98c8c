// GPU-BOUND: the thread that drives the GPU spends its loop in synchronisation, on CPU spinning
// or asleep in the sync itself (not preempted), and the host is otherwise idle.
#include <algorithm>

#include "analysis/diagnose/chain_builders.hpp"

namespace causeway::analysis {

std::optional<CausalChain> gpu_bound_chain(const ChainInputs& in) {
    const CallAccounting& acc = in.accounting;
    const TimeSplit& sync = acc.by_category[static_cast<std::size_t>(OpCategory::kSync)];
    // Time the device waited for other ranks in collectives is theirs (COLLECTIVE-WAIT).
    std::int64_t peer_wait_ns = 0;
    for (const DeviceQueue& queue : in.queues) {
        for (const PeriodMeeting& meeting : queue.meetings) {
            add_to(peer_wait_ns, meeting.peer_wait_ns);
        }
    }
    std::int64_t lost = std::max<std::int64_t>(
        0, category_own_ns(acc, OpCategory::kSync) - std::min(peer_wait_ns, sync.total_ns));
    double share = in.share_of_span(lost);
    // The share of the loop the device had work (its queue reconstructed from the calls): a
    // synchronisation that lost its CPU to other load still waited for a busy device, so the
    // host in synchronisation 30% of the loop, on a CPU or not, with the device busy half of it,
    // is GPU-BOUND too. (A balanced loop keeps the device busy with the host busy as well and
    // little time in synchronisation: that is HEALTHY.)
    std::int64_t loop_ns = 0;
    std::int64_t device_ns = 0;
    for (const DeviceQueue& queue : in.queues) {
        add_to(loop_ns, queue.loop_ns());
        add_to(device_ns, queue.device_busy_ns());
    }
    const double device_share =
        loop_ns > 0 ? static_cast<double>(device_ns) / static_cast<double>(loop_ns) : 0.0;
    const bool lost_cpu_waiting =
        in.share_of_span(sync.total_ns) >= kGpuBoundMinShare && device_share >= kDeviceBusyMinShare;
    if (acc.span_ns == 0 || (share < kGpuBoundMinShare && !lost_cpu_waiting)) {
        return std::nullopt;
    }
    CausalChain chain;
    chain.root_cause_class = VerdictClass::kGpuBound;
    chain.time_lost_ns = lost;
    chain.time_lost_share = share;
    const OpAccount* top = nullptr;
    for (const auto& op : acc.ops) {
        const OpInfo& info = in.model.ops[static_cast<std::size_t>(op.op_index)];
        if (info.category == OpCategory::kSync &&
            (top == nullptr || op.dur.total_ns > top->dur.total_ns)) {
            top = &op;
        }
    }
    // Symptom: the share of the loop, and the sync op that took most of it {op_p50_ns, op_calls}.
    if (top != nullptr) {
        chain.op = in.model.ops[static_cast<std::size_t>(top->op_index)].name;
        chain.facts = {{Fact::kOpP50Ns, top->dur.p50_ns}, {Fact::kOpCalls, top->dur.count}};
    }
    double runnable = sync.total_ns > 0 ? static_cast<double>(sync.runnable_waiting_ns()) /
                                              static_cast<double>(sync.total_ns)
                                        : 0.0;
    chain.evidence.push_back(make_evidence(EvidenceKind::kSyncNotPreemptedShare, share,
                                           {{Fact::kLostNs, lost},
                                            {Fact::kSpanNs, acc.span_ns},
                                            {Fact::kOncpuNs, sync.oncpu_ns()},
                                            {Fact::kBlockedNs, sync.blocked_ns}}));
    chain.evidence.push_back(make_evidence(EvidenceKind::kSyncRunnableWaitingShare, runnable));
    const SystemContext& ctx = in.during_span;
    bool host_idle = ctx.snapshots == 0 || ctx.cpu_busy_pct < 80.0;
    if (ctx.snapshots > 0) {
        chain.evidence.push_back(make_evidence(EvidenceKind::kCpuBusyDuringLoop, ctx.cpu_busy_pct));
    }
    chain.critical_path = critical_path_cost(in, {.per_queue = {}, .device_scale = 0.5});
    chain.facts.push_back({Fact::kDeviceBusyShare, device_share});
    chain.facts.push_back({Fact::kDeviceBusyMinShare, kDeviceBusyMinShare});
    chain.facts.push_back({Fact::kSyncMinShare, kGpuBoundMinShare});
    // The share of the loop the device was idle: the host's own part of the critical path.
    chain.recommendations.push_back(
        {RecommendationKind::kFasterDeviceWork,
         {{Fact::kHostCriticalShare, std::max(0.0, 1.0 - device_share)}}});
    chain.confidence = runnable < 0.1 && host_idle ? Confidence::kHigh : Confidence::kMedium;
    blame_device(chain, CauseKind::kDevice, "GPU", EffectKind::kInDevice);
    return chain;
}

}  // namespace causeway::analysis
