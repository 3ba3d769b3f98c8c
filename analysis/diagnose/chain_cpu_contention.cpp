// CPU-CONTENDED: the threads that drive the GPU were runnable but not running (preempted, or
// woken and waiting for a CPU) because an actor held their CPU, measured against their own
// off-CPU intervals. Switches of other threads are never evidence: a thread that was not
// preempted is not contended.
#include <algorithm>
#include <map>
#include <optional>

#include "analysis/diagnose/chain_builders.hpp"
#include "analysis/diagnose/job_cpus.hpp"
#include "analysis/model/saturating.hpp"

namespace causeway::analysis {
namespace {

constexpr std::size_t kMaxCompetitors = 8;

std::vector<Competitor> name_competitors(const TraceModel& model, const Roles& roles,
                                         const CompetitorTime& time) {
    std::int64_t total = 0;
    for (const auto& [thread, ns] : time) {
        add_to(total, ns);
    }
    std::vector<Competitor> out;
    for (const auto& [thread, ns] : time) {
        Competitor c;
        c.preempted_ns = ns;
        c.share = total > 0 ? static_cast<double>(ns) / static_cast<double>(total) : 0;
        if (thread < 0) {
            c.comm = "<thread not recorded>";
            c.role = Role::kCompetitor;
        } else {
            const ThreadInfo& t = model.threads[static_cast<std::size_t>(thread)];
            const ProcessInfo& p = model.process_of_thread(thread);
            c.comm = t.comm;
            c.pid = p.pid;
            c.tid = t.tid;
            c.in_tree = p.in_tree;
            c.cgroup = p.cgroup;
            c.container = p.container;
            c.role = roles.thread[static_cast<std::size_t>(thread)];
        }
        out.push_back(std::move(c));
    }
    std::sort(out.begin(), out.end(), [](const Competitor& a, const Competitor& b) {
        return a.preempted_ns > b.preempted_ns;
    });
    if (out.size() > kMaxCompetitors) {
        out.resize(kMaxCompetitors);
    }
    return out;
}

// The competitor time of the cause's own threads.
CompetitorTime of_cause(const CompetitorTime& time, const Cause& cause) {
    CompetitorTime mine;
    for (const auto& [thread, ns] : time) {
        if (std::find(cause.threads.begin(), cause.threads.end(), thread) != cause.threads.end() ||
            (thread < 0 && cause.key.kind == CauseKind::kUnknownCompetitor)) {
            mine[thread] = ns;
        }
    }
    return mine;
}

std::int64_t total_of(const CompetitorTime& time) {
    std::int64_t total = 0;
    for (const auto& [thread, ns] : time) {
        add_to(total, ns);
    }
    return total;
}

void recommend_for_workers(const ChainInputs& in, CausalChain& chain) {
    const DataLoaderFacts& loader = in.loader;
    const std::int64_t cpus = in.job_cpus;
    chain.recommendations.push_back({RecommendationKind::kIndexInMemory});
    if (loader.workers_at_least(cpus)) {
        chain.recommendations.push_back(
            {RecommendationKind::kFewerWorkers,
             {{Fact::kWorkers, static_cast<std::int64_t>(loader.max_concurrent_workers)},
              {Fact::kCpus, static_cast<std::int64_t>(cpus)},
              {Fact::kNumWorkers, std::max<std::int64_t>(1, cpus - 1)}}});
    } else {
        chain.recommendations.push_back(
            {RecommendationKind::kWorkersYieldCpu,
             {{Fact::kNumWorkers,
               static_cast<std::int64_t>(std::max(1, loader.max_concurrent_workers - 1))}}});
    }
    if (loader.reforked) {
        chain.recommendations.push_back(
            {RecommendationKind::kPersistentWorkers,
             {{Fact::kWorkerGenerations, static_cast<std::int64_t>(loader.worker_generations)}}});
    }
}

}  // namespace

// The symptom's facts: the slow op whose calls lost the most time waiting for a CPU (chain.op and
// its slow_op_facts), else none (the time lost between CUDA calls is the chain's own).
void add_lost_cpu_symptom(const ChainInputs& in, CausalChain& chain) {
    const OpAccount* worst = nullptr;
    for (const auto& op : in.accounting.ops) {
        if (op.slow_split.runnable_waiting_ns() > 0 &&
            (worst == nullptr ||
             op.slow_split.runnable_waiting_ns() > worst->slow_split.runnable_waiting_ns())) {
            worst = &op;
        }
    }
    if (worst != nullptr) {
        chain.op = in.model.ops[static_cast<std::size_t>(worst->op_index)].name;
        chain.facts = slow_op_facts(*worst);
    }
}

void add_cpu_context_evidence(const ChainInputs& in, CausalChain& chain) {
    const CallAccounting& acc = in.accounting;
    const TimeSplit& slow = acc.slow_split;
    if (!acc.slow_calls.empty()) {
        double slow_share = slow.total_ns > 0 ? static_cast<double>(slow.runnable_waiting_ns()) /
                                                    static_cast<double>(slow.total_ns)
                                              : 0.0;
        double blocked_share = slow.total_ns > 0 ? static_cast<double>(slow.blocked_ns) /
                                                       static_cast<double>(slow.total_ns)
                                                 : 0.0;
        chain.evidence.push_back(
            make_evidence(EvidenceKind::kSlowCallsRunnableWaitingShare, slow_share,
                          {{Fact::kSlowCalls, static_cast<std::int64_t>(acc.slow_calls.size())},
                           {Fact::kSlowNs, slow.total_ns},
                           {Fact::kBlockedShare, blocked_share}}));
    }
    const SystemContext& ctx = acc.slow_calls.empty() ? in.during_span : in.during_slow_calls;
    const std::int64_t cpus = in.job_cpus;
    std::int64_t during_slow_calls = acc.slow_calls.empty() ? 0 : 1;
    if (ctx.covered_ns > 0) {
        chain.evidence.push_back(
            make_evidence(EvidenceKind::kRunnableTreeThreads, ctx.runnable_tree_threads,
                          {{Fact::kCpus, cpus}, {Fact::kDuringSlowCalls, during_slow_calls}}));
        if (ctx.page_allocs_per_s > 0) {
            chain.evidence.push_back(
                make_evidence(EvidenceKind::kPageAllocsRate, ctx.page_allocs_per_s,
                              {{Fact::kOverallPerS, ctx.page_allocs_per_s_overall},
                               {Fact::kDuringSlowCalls, during_slow_calls}}));
        }
        if (ctx.snapshots > 0) {
            chain.evidence.push_back(make_evidence(EvidenceKind::kSystemCpuBusy, ctx.cpu_busy_pct,
                                                   {{Fact::kProcsRunning, ctx.procs_running}}));
        }
    }
    const DataLoaderFacts& loader = in.loader;
    if (loader.has_workers()) {
        chain.evidence.push_back(
            make_evidence(EvidenceKind::kDataLoaderWorkersOverRun, loader.max_concurrent_workers,
                          {{Fact::kCpus, cpus},
                           {Fact::kWorkersSeen, static_cast<std::int64_t>(loader.workers_seen)}}));
    }
}

namespace {

// A job pinned to fewer CPUs than the machine has, which keeps more threads runnable than it
// may use: its threads take turns on its CPUs while the others idle.
void recommend_wider_cpuset(const ChainInputs& in, CausalChain& chain) {
    const auto allowed = gpu_processes_cpus_allowed(in.model, in.accounting);
    const std::int64_t cpus = in.model.session.cpu_count;
    const double runnable = in.during_span.runnable_tree_threads;
    if (!allowed || *allowed >= cpus || runnable <= static_cast<double>(*allowed)) {
        return;
    }
    chain.evidence.push_back(
        make_evidence(EvidenceKind::kCpusAllowed, static_cast<double>(*allowed),
                      {{Fact::kCpus, cpus}, {Fact::kRunnableThreads, runnable}}));
    chain.recommendations.push_back(
        {RecommendationKind::kWiderCpuset, {{Fact::kCpusAllowed, *allowed}, {Fact::kCpus, cpus}}});
}

}  // namespace

void describe_cpu_contention(const ChainInputs& in, const Cause& cause, CausalChain& chain) {
    const CallAccounting& acc = in.accounting;
    double share = chain.time_lost_share;
    add_lost_cpu_symptom(in, chain);
    add_cpu_context_evidence(in, chain);
    const CompetitorTime& slow_time = of_cause(acc.competitors_slow, cause);
    const CompetitorTime& who =
        total_of(slow_time) >= 1'000'000 ? slow_time : of_cause(acc.competitors_all, cause);
    chain.competitors = name_competitors(in.model, in.roles, who);
    // The root cause names the actor's kind and its competitors (report/chain_text).
    switch (cause.key.kind) {
        case CauseKind::kDataLoaderWorkers:
            recommend_for_workers(in, chain);
            break;
        case CauseKind::kProcessesOutside:
            chain.recommendations.push_back({RecommendationKind::kStopCompetitors});
            break;
        case CauseKind::kTreeThreads:
            chain.recommendations.push_back({RecommendationKind::kLimitIntraOpThreads});
            break;
        case CauseKind::kSeveral:
            chain.recommendations.push_back({RecommendationKind::kOwnCore});
            break;
        default:
            break;
    }
    recommend_wider_cpuset(in, chain);
    chain.confidence = lost_cpu_confidence(in, share);
}

Confidence lost_cpu_confidence(const ChainInputs& in, double share) {
    const CallAccounting& acc = in.accounting;
    const TimeSplit& slow = acc.slow_split;
    double coverage = acc.slow_excess_ns > 0 && slow.runnable_waiting_ns() > 0
                          ? static_cast<double>(slow.runnable_waiting_ns()) /
                                static_cast<double>(acc.slow_excess_ns)
                          : share;
    return std::max(confidence_from(coverage, 0.5, 0.2),
                    share >= 0.3 ? Confidence::kMedium : Confidence::kLow);
}

}  // namespace causeway::analysis
