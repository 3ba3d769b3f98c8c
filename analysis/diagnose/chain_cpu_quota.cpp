// CPU-THROTTLED: the thread that drives the GPU was runnable but held off the CPU: the collector
// recorded its switch-outs as throttled, or (where it could not) its CPU went idle. Its group
// had used its CPU quota for the period (CFS bandwidth control: a container's CPU limit, cpu.max
// or cpu.cfs_quota_us) and waited for the next one. Whoever got the CPU did not take it, so no
// competitor is named; the advice is the limit's. Where the recorder sampled the processes' cgroups
// (schema 4), the chain names the group whose quota limits it, the quota and how often it
// throttled.
#include <algorithm>

#include "analysis/diagnose/chain_builders.hpp"

namespace causeway::analysis {
namespace {

// The samples of the GPU-driving threads' processes that found a quota, in time order.
std::vector<const CgroupSample*> limited_samples(const ChainInputs& in) {
    std::vector<int> processes;
    for (const ThreadAccount& primary : in.accounting.primary) {
        processes.push_back(
            in.model.threads[static_cast<std::size_t>(primary.thread_index)].process_index);
    }
    std::vector<const CgroupSample*> samples;
    for (const CgroupSample& sample : in.model.cgroup_samples) {
        if (sample.limit_path && std::find(processes.begin(), processes.end(),
                                           sample.process_index) != processes.end()) {
            samples.push_back(&sample);
        }
    }
    return samples;
}

// {cgroup, cgroup_version, quota_cpus, period_us, nr_throttled, nr_periods, throttled_ns}: the
// group of the last sample (the actor, with the container and pod of the limited process), its
// throttling over the samples of that group (all of its counts when it was sampled once).
void add_limit_facts(const ChainInputs& in, CausalChain& chain) {
    const auto samples = limited_samples(in);
    if (samples.empty()) {
        return;
    }
    const CgroupSample& last = *samples.back();
    const auto first = *std::find_if(samples.begin(), samples.end(), [&](const CgroupSample* s) {
        return s->limit_path == last.limit_path && s->process_index == last.process_index;
    });
    const bool one = first == &last;
    chain.actor.name = *last.limit_path;
    chain.actor.container =
        in.model.processes[static_cast<std::size_t>(last.process_index)].container;
    chain.facts.push_back({Fact::kCgroup, *last.limit_path});
    chain.facts.push_back({Fact::kCgroupVersion, last.version});
    chain.facts.push_back({Fact::kQuotaCpus, last.quota_cpus()});
    chain.facts.push_back({Fact::kPeriodUs, last.period_us});
    chain.facts.push_back(
        {Fact::kNrThrottled, last.nr_throttled - (one ? 0 : first->nr_throttled)});
    chain.facts.push_back({Fact::kNrPeriods, last.nr_periods - (one ? 0 : first->nr_periods)});
    chain.facts.push_back(
        {Fact::kThrottledNs, last.throttled_ns - (one ? 0 : first->throttled_ns)});
}

// The CPUs the traced tree ran on, on average, while its quota let it run: what it used over the
// loop (its runnable threads not held off a CPU) over the share of the loop the GPU-driving
// threads were not held off by the quota. 0 when the quota held them nearly all the time (nothing
// to measure the rest by).
double cpus_used_unthrottled(const ChainInputs& in, const Cause& cause) {
    constexpr double kMinUnthrottledShare = 0.05;
    const SystemContext& ctx = in.during_span;
    const double unthrottled = 1.0 - std::min(1.0, in.share_of_span(cause.preempted_ns));
    if (ctx.covered_ns <= 0 || unthrottled < kMinUnthrottledShare) {
        return 0;
    }
    return ctx.runnable_tree_threads * (1.0 - ctx.tree_preempted_share) / unthrottled;
}

}  // namespace

void describe_cpu_quota(const ChainInputs& in, const Cause& cause, CausalChain& chain) {
    add_lost_cpu_symptom(in, chain);
    add_cpu_context_evidence(in, chain);
    add_limit_facts(in, chain);
    Recommendation raise{RecommendationKind::kRaiseCpuLimit};
    if (const FactParam* cpus = find_fact(chain.facts, Fact::kQuotaCpus)) {
        raise.params.push_back(*cpus);
    }
    if (double used = cpus_used_unthrottled(in, cause); used > 0) {
        raise.params.push_back({Fact::kCpusUsedUnthrottled, used});
    }
    chain.recommendations.push_back(std::move(raise));
    chain.confidence = lost_cpu_confidence(in, chain.time_lost_share);
}

}  // namespace causeway::analysis
